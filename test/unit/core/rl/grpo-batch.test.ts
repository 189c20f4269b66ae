import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { flattenGrpoBatch, groupRewards, parseGrpoBatch, validateGrpoBatch } from '../../../../src/core/rl/index.ts';

const text = JSON.stringify({
  groups: [
    {
      prompt_ids: [5, 6, 7],
      completions: [
        { ids: [8, 9], reward: 1, old_logprobs: [-0.5, -1.25], text: 'ignored' },
        { ids: [10], reward: 0, old_logprobs: [-2] },
      ],
    },
    { prompt_ids: [11], completions: [{ ids: [12, 13, 14], reward: 0.5, old_logprobs: [-0.1, -0.2, -0.3] }] },
  ],
});

/** The BatonError a bad batch throws, to check its code and message. */
function errorOf(value: unknown): BatonError {
  try {
    validateGrpoBatch(value);
  } catch (e) {
    if (BatonError.is(e)) return e;
    throw e;
  }
  throw new Error('the batch was accepted');
}

const withCompletion = (completion: unknown) => ({ groups: [{ prompt_ids: [1], completions: [{ ids: [2], reward: 1 }, completion] }] });

describe('parseGrpoBatch', () => {
  it("reads the CLI's batch file into Baton's names, ignoring other fields", () => {
    expect(parseGrpoBatch(text)).toEqual({
      groups: [
        {
          promptIds: [5, 6, 7],
          completions: [
            { ids: [8, 9], reward: 1, oldLogprobs: [-0.5, -1.25] },
            { ids: [10], reward: 0, oldLogprobs: [-2] },
          ],
        },
        { promptIds: [11], completions: [{ ids: [12, 13, 14], reward: 0.5, oldLogprobs: [-0.1, -0.2, -0.3] }] },
      ],
    });
  });

  it('takes a batch without old_logprobs (mu = 1)', () => {
    const batch = validateGrpoBatch({ groups: [{ prompt_ids: [1], completions: [{ ids: [2, 3], reward: -1 }] }] });
    expect(batch.groups[0].completions[0]).toEqual({ ids: [2, 3], reward: -1 });
  });

  it('says when the text is not JSON', () => {
    expect(() => parseGrpoBatch('{"groups": [')).toThrow(/not valid JSON/);
  });
});

describe('validateGrpoBatch errors name the group and completion', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no groups key', { batches: [] }, /object \{"groups"/],
    ['no groups', { groups: [] }, /no groups/],
    ['a non-integer id', withCompletion({ ids: [2, 3.5], reward: 1 }), /Group 0, completion 1: ids\[1\] is 3\.5/],
    ['a negative id', withCompletion({ ids: [-1], reward: 1 }), /Group 0, completion 1: ids\[0\] is -1/],
    ['an id given as a string', withCompletion({ ids: ['7'], reward: 1 }), /Group 0, completion 1: ids\[0\] is "7"/],
    ['an empty completion', withCompletion({ ids: [], reward: 1 }), /Group 0, completion 1: ids is empty/],
    ['a missing reward', withCompletion({ ids: [2] }), /Group 0, completion 1: reward absent is not a finite number/],
    [
      'an infinite reward (1e999 in JSON)',
      JSON.parse('{"groups":[{"prompt_ids":[1],"completions":[{"ids":[2],"reward":1e999}]}]}'),
      /Group 0, completion 0: reward Infinity is not a finite number/,
    ],
    ['a NaN reward', withCompletion({ ids: [2], reward: Number.NaN }), /Group 0, completion 1: reward NaN is not a finite number/],
    ['old_logprobs of another length', withCompletion({ ids: [2, 3], reward: 1, old_logprobs: [-1] }), /Group 0, completion 1: 1 old_logprobs for 2 ids/],
    ['a non-finite old logprob', withCompletion({ ids: [2, 3], reward: 1, old_logprobs: [-1, null] }), /Group 0, completion 1: old_logprobs\[1\] is null/],
    ['an empty prompt', { groups: [{ prompt_ids: [], completions: [{ ids: [2], reward: 1 }] }] }, /Group 0: prompt_ids is empty/],
    ['a group without completions', { groups: [{ prompt_ids: [1], completions: [] }] }, /Group 0: completions must be a non-empty array/],
    ['a completion that is not an object', withCompletion([2, 3]), /Group 0, completion 1 must be an object/],
    [
      'old_logprobs on some completions only',
      withCompletion({ ids: [2], reward: 0, old_logprobs: [-1] }),
      /Group 0, completion 1 has old_logprobs but group 0, completion 0 has none/,
    ],
  ];
  for (const [name, value, message] of cases) {
    it(name, () => {
      const error = errorOf(value);
      expect(error.code).toBe('data/invalid');
      expect(error.message).toMatch(message);
    });
  }

  it('names a later group by its index', () => {
    const value = {
      groups: [
        { prompt_ids: [1], completions: [{ ids: [2], reward: 1 }] },
        {
          prompt_ids: [1],
          completions: [
            { ids: [2], reward: 1 },
            { ids: [0.5], reward: 1 },
          ],
        },
      ],
    };
    expect(errorOf(value).message).toMatch(/^Group 1, completion 1: ids\[0\]/);
  });
});

describe('flattenGrpoBatch and groupRewards', () => {
  it('lays every completion after its prompt, in group then completion order', () => {
    const batch = parseGrpoBatch(text);
    expect(flattenGrpoBatch(batch)).toEqual([
      { ids: [5, 6, 7, 8, 9], completionStart: 3, group: 0, reward: 1, oldLogprobs: [-0.5, -1.25] },
      { ids: [5, 6, 7, 10], completionStart: 3, group: 0, reward: 0, oldLogprobs: [-2] },
      { ids: [11, 12, 13, 14], completionStart: 1, group: 1, reward: 0.5, oldLogprobs: [-0.1, -0.2, -0.3] },
    ]);
    expect(groupRewards(batch)).toEqual([[1, 0], [0.5]]);
  });

  it('leaves oldLogprobs out when the batch has none', () => {
    const batch = validateGrpoBatch({ groups: [{ prompt_ids: [1, 2], completions: [{ ids: [3], reward: 1 }] }] });
    expect(flattenGrpoBatch(batch)).toEqual([{ ids: [1, 2, 3], completionStart: 2, group: 0, reward: 1 }]);
  });
});
