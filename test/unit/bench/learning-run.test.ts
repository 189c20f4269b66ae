/**
 * The subject filter of a learning run (bench:learn --subjects): the routellm-mmlu split kept to the
 * subjects named, each held out as the whole set holds it out, and a subject it does not know refused by name.
 */
import { describe, expect, it } from 'vitest';
import { mmluSubject } from '../../../src/core/bench/index.ts';
import { selectSubjects } from '../../../bench/learning-run.ts';
import { readBuiltInTaskSet } from '../../../src/node/inputs/task-file.ts';

describe('selectSubjects', () => {
  it('keeps the named subjects of both halves of the split, and nothing else', async () => {
    const split = await readBuiltInTaskSet('routellm-mmlu', 0);
    const subjects = ['moral_scenarios', 'high_school_mathematics'];
    const kept = selectSubjects(split, subjects);
    for (const subject of subjects) {
      const all = (half: typeof split.train) => half.filter((t) => mmluSubject(t) === subject);
      expect(all(kept.train)).toEqual(all(split.train));
      expect(all(kept.heldOut)).toEqual(all(split.heldOut));
      expect(all(kept.heldOut).length).toBe(Math.round(0.1 * (all(split.train).length + all(split.heldOut).length)));
    }
    expect(new Set([...kept.train, ...kept.heldOut].map(mmluSubject))).toEqual(new Set(subjects));
    expect(selectSubjects(split, undefined)).toBe(split);
  });

  it('refuses a subject no question is in, naming it', async () => {
    const split = await readBuiltInTaskSet('routellm-mmlu', 0);
    expect(() => selectSubjects(split, ['astronomy', 'moral scenarios'])).toThrow(
      /No question is in the subject moral scenarios; the task set's subjects are abstract_algebra, /,
    );
  });
});
