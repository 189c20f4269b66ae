/** The episode filter by evaluation: an evaluation's runs are the episodes tagged eval:<its id>, and only those. */
import { expect, it } from 'vitest';
import { episodeKeys, evaluationTag, matchesFilter } from '../../../../src/core/episodes/index.ts';
import { evalTags } from '../../../../src/core/bench/index.ts';
import { seededRandom } from '../../../../src/core/random.ts';
import { makeEpisode } from '../../../support/episode-factory.ts';

const rng = seededRandom(3);
const keysWith = (tags: string[]) => episodeKeys({ ...makeEpisode(rng), tags });

it("matches the tags the evaluation runner gives an evaluation's runs", () => {
  const tags = evalTags('ab12', { method: 'conductor:engine:demo', item: 'gsm8k-3', repeat: 0 });
  expect(tags).toContain(evaluationTag('ab12'));
  expect(matchesFilter(keysWith(tags), { evaluation: 'ab12' })).toBe(true);
});

it("leaves out another evaluation's runs, look-alike tags and untagged episodes", () => {
  for (const tags of [['eval:ab123'], ['eval:ab1'], ['ab12'], ['eval', 'ab12'], ['method:eval:ab12'], []]) {
    expect(matchesFilter(keysWith(tags), { evaluation: 'ab12' })).toBe(false);
  }
});

it('narrows with the other fields', () => {
  const keys = keysWith(['eval:ab12']);
  expect(matchesFilter(keys, { evaluation: 'ab12', status: keys.status })).toBe(true);
  expect(matchesFilter(keys, { evaluation: 'ab12', status: keys.status === 'ok' ? 'infra-error' : 'ok' })).toBe(false);
});
