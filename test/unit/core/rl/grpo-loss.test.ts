import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/core/random.ts';
import { grpoLoss, grpoTokenWeights, type GrpoLossOptions, type GrpoLossSequence, type GrpoLossType } from '../../../../src/core/rl/index.ts';
import { checkTensor } from '../../../support/check-tensor.ts';
import { checkGradient } from '../../../support/finite-difference.ts';

const EXACT = { abs: 1e-12, rel: 1e-12 };
const LOSS_TYPES: GrpoLossType[] = ['bnpo', 'grpo', 'dr_grpo'];
const base = { beta: 0.1, epsilonLow: 0.2, epsilonHigh: 0.28, maxCompletionLength: 4 };

/**
 * A batch worked out by hand, one token per case of the clipped objective (epsLow 0.2, epsHigh 0.28):
 * each token with its rho, the policy term -min(rho A, clip(rho) A) and its derivative in logp.
 */
const k3 = (delta: number) => Math.exp(delta) - delta - 1; // delta = ref - logp
const dk3 = (delta: number) => 1 - Math.exp(delta);
const e = Math.exp;
const hand = [
  {
    advantage: 1,
    tokens: [
      // rho e^0.5 > 1.28 with A > 0: clipped high, the term is -1.28 A and passes no gradient
      { logp: -1, old: -1.5, ref: -1.2, policy: -1.28, dpolicy: 0 },
      // rho 1: -A, gradient -A rho
      { logp: -2, old: -2, ref: -1.9, policy: -1, dpolicy: -1 },
      // rho e^-0.5 < 0.8 with A > 0: min picks rho A, unclipped
      { logp: -3, old: -2.5, ref: -3.1, policy: -e(-0.5), dpolicy: -e(-0.5) },
    ],
  },
  {
    advantage: -0.5,
    tokens: [
      // rho e^-0.3 < 0.8 with A < 0: clipped low, the term is -0.8 A
      { logp: -0.5, old: -0.2, ref: -0.4, policy: 0.4, dpolicy: 0 },
      // rho e^0.1 inside the range
      { logp: -3, old: -3.1, ref: -3.3, policy: 0.5 * e(0.1), dpolicy: 0.5 * e(0.1) },
    ],
  },
  {
    advantage: -1,
    // rho e^0.5 > 1.28 with A < 0: min picks rho A, unclipped
    tokens: [{ logp: -1, old: -1.5, ref: -0.9, policy: e(0.5), dpolicy: e(0.5) }],
  },
];
const handSequences: GrpoLossSequence[] = hand.map((s) => ({
  advantage: s.advantage,
  logprobs: s.tokens.map((t) => t.logp),
  oldLogprobs: s.tokens.map((t) => t.old),
  refLogprobs: s.tokens.map((t) => t.ref),
}));
/** Per-token weight of each sequence (lengths 3, 2, 1; 3 sequences, 6 tokens, maxCompletionLength 4). */
const handWeights: Record<GrpoLossType, number[]> = {
  bnpo: [1 / 6, 1 / 6, 1 / 6],
  grpo: [1 / 9, 1 / 6, 1 / 3],
  dr_grpo: [1 / 12, 1 / 12, 1 / 12],
};

/** A seeded random batch: lengths 1..6, old logprobs near the current ones (so some tokens clip), refs near too. */
interface RandomSequence {
  advantage: number;
  logprobs: number[];
  oldLogprobs: number[];
  refLogprobs: number[];
}

function randomBatch(seed: number, sequences = 5): RandomSequence[] {
  const random = seededRandom(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  return Array.from({ length: sequences }, () => {
    const T = 1 + Math.floor(random() * 6);
    const logprobs = Array.from({ length: T }, () => between(-4, -0.05));
    return {
      advantage: between(-1.5, 1.5),
      logprobs,
      oldLogprobs: logprobs.map((lp) => lp + between(-0.6, 0.6)),
      refLogprobs: logprobs.map((lp) => lp + between(-0.8, 0.8)),
    };
  });
}

/** The loss as a function of every sequence's logprobs laid end to end, the others fixed. */
function lossOfFlatLogprobs(sequences: GrpoLossSequence[], options: GrpoLossOptions) {
  const lengths = sequences.map((s) => s.logprobs.length);
  const weights = grpoTokenWeights(lengths, options);
  return (flat: Float64Array) => {
    let at = 0;
    const moved = sequences.map((s, i) => ({ ...s, logprobs: flat.subarray(at, (at += lengths[i])) }));
    return grpoLoss(moved, options, weights).loss;
  };
}

const flatten = (arrays: ArrayLike<number>[]) => Float64Array.from(arrays.flatMap((a) => Array.from(a)));

describe('grpoLoss on a batch worked out by hand', () => {
  for (const lossType of LOSS_TYPES) {
    it(`${lossType}: loss and d loss / d logp`, () => {
      const options = { ...base, lossType };
      const w = handWeights[lossType];
      let expectedLoss = 0;
      const expectedGrad = hand.map((s, i) =>
        s.tokens.map((t) => {
          expectedLoss += w[i] * (t.policy + base.beta * k3(t.ref - t.logp));
          return w[i] * (t.dpolicy + base.beta * dk3(t.ref - t.logp));
        }),
      );
      const result = grpoLoss(handSequences, options);
      expect(result.loss).toBeCloseTo(expectedLoss, 12);
      checkTensor(`${lossType} dlogp`, flatten(result.dlogprobs), expectedGrad.flat(), EXACT);
      expect(result.dlogprobs.map((d) => d.length)).toEqual([3, 2, 1]);
    });
  }

  it("reports TRL's clip ratios, the mean KL and the token count", () => {
    const result = grpoLoss(handSequences, { ...base, lossType: 'bnpo' });
    expect(result.tokens).toBe(6);
    expect(result.clipRatio.lowMean).toBeCloseTo(1 / 6, 15);
    expect(result.clipRatio.highMean).toBeCloseTo(1 / 6, 15);
    expect(result.clipRatio.regionMean).toBeCloseTo(2 / 6, 15);
    expect(result.clipRatio.lowMin).toBe(0); // per sequence: 0, 1/2, 0
    expect(result.clipRatio.highMax).toBeCloseTo(1 / 3, 15); // per sequence: 1/3, 0, 0
    const kl = hand.flatMap((s) => s.tokens.map((t) => k3(t.ref - t.logp))).reduce((a, b) => a + b) / 6;
    expect(result.kl).toBeCloseTo(kl, 15);
  });

  it('has no KL term or metric with beta 0 and no reference', () => {
    const noRef = handSequences.map(({ refLogprobs: _, ...s }) => s);
    const result = grpoLoss(noRef, { ...base, beta: 0, lossType: 'bnpo' });
    const policyLoss = hand.flatMap((s) => s.tokens.map((t) => t.policy)).reduce((a, b) => a + b) / 6;
    expect(result.loss).toBeCloseTo(policyLoss, 14);
    expect(result.kl).toBeUndefined();
  });

  it("'dr_grpo' divides by the configured maximum length, not the batch's longest", () => {
    const at4 = grpoLoss(handSequences, { ...base, lossType: 'dr_grpo', maxCompletionLength: 4 }).loss;
    const at8 = grpoLoss(handSequences, { ...base, lossType: 'dr_grpo', maxCompletionLength: 8 }).loss;
    expect(at8).toBeCloseTo(at4 / 2, 14);
  });
});

describe('grpoLoss against central differences', () => {
  for (const lossType of LOSS_TYPES) {
    for (const beta of [0, 0.04]) {
      it(`${lossType}, beta ${beta}: d loss / d logp on random batches`, () => {
        for (const seed of [11, 12, 13]) {
          const sequences = randomBatch(seed);
          const options = { ...base, beta, lossType };
          const result = grpoLoss(sequences, options);
          checkGradient(
            `${lossType} beta ${beta} seed ${seed}`,
            lossOfFlatLogprobs(sequences, options),
            flatten(sequences.map((s) => s.logprobs)),
            flatten(result.dlogprobs),
          );
        }
      });
    }
  }

  it('covers clipped tokens on both sides (the random batches are not all inside the range)', () => {
    const clip = [11, 12, 13].map((seed) => grpoLoss(randomBatch(seed), { ...base, lossType: 'bnpo' }).clipRatio);
    expect(clip.some((c) => c.lowMean > 0)).toBe(true);
    expect(clip.some((c) => c.highMean > 0)).toBe(true);
    expect(clip.every((c) => c.regionMean < 1)).toBe(true);
  });
});

describe('grpoLoss without old logprobs (mu = 1)', () => {
  it('is the policy gradient: loss -A per token, d loss / d logp = -A / N for bnpo', () => {
    const sequences = randomBatch(21).map(({ oldLogprobs: _, refLogprobs: __, ...s }) => s);
    const N = sequences.reduce((n, s) => n + s.logprobs.length, 0);
    const result = grpoLoss(sequences, { ...base, beta: 0, lossType: 'bnpo' });
    const expectedLoss = sequences.reduce((sum, s) => sum - s.advantage * s.logprobs.length, 0) / N;
    expect(result.loss).toBeCloseTo(expectedLoss, 14);
    checkTensor(
      'ratio-1 dlogp',
      flatten(result.dlogprobs),
      sequences.flatMap((s) => s.logprobs.map(() => -s.advantage / N)),
      EXACT,
    );
    expect(result.clipRatio.regionMean).toBe(0);
  });

  it('equals the loss with logp_old = logp detached, checked by central differences at that point', () => {
    const sequences = randomBatch(22);
    const withoutOld = sequences.map(({ oldLogprobs: _, ...s }) => s);
    const detached = sequences.map((s) => ({ ...s, oldLogprobs: [...s.logprobs] }));
    const options = { ...base, lossType: 'grpo' as const };
    const result = grpoLoss(withoutOld, options);
    expect(result.loss).toBeCloseTo(grpoLoss(detached, options).loss, 14);
    checkGradient('detached old', lossOfFlatLogprobs(detached, options), flatten(sequences.map((s) => s.logprobs)), flatten(result.dlogprobs));
  });
});

describe("grpoLoss at a tie, with PyTorch's subgradients", () => {
  it('passes -A rho when rho sits exactly on both clip bounds (epsilons 0, rho 1)', () => {
    // min(rho A, clamp(rho, 1, 1) A) is a tie: torch.minimum gives each side half, and torch.clamp
    // passes the gradient at its bounds, so the whole -A reaches logp (an exclusive clamp would give -A/2).
    const sequences = [
      { advantage: -0.75, logprobs: [-1.5, -0.25], oldLogprobs: [-1.5, -0.25] },
      { advantage: 1.25, logprobs: [-2], oldLogprobs: [-2] },
    ];
    const result = grpoLoss(sequences, { ...base, beta: 0, epsilonLow: 0, epsilonHigh: 0, lossType: 'bnpo' });
    checkTensor('tie dlogp', flatten(result.dlogprobs), [0.75 / 3, 0.75 / 3, -1.25 / 3], EXACT);
    expect(result.clipRatio.regionMean).toBe(0);
  });
});

describe('grpoLoss over micro-batches', () => {
  it('with the whole batch weights, the parts add up to the whole: loss and gradient', () => {
    const sequences = randomBatch(31, 6);
    for (const lossType of LOSS_TYPES) {
      const options = { ...base, lossType };
      const weights = grpoTokenWeights(
        sequences.map((s) => s.logprobs.length),
        options,
      );
      const whole = grpoLoss(sequences, options);
      const parts = [grpoLoss(sequences.slice(0, 2), options, weights.subarray(0, 2)), grpoLoss(sequences.slice(2), options, weights.subarray(2))];
      expect(parts[0].loss + parts[1].loss).toBeCloseTo(whole.loss, 14);
      checkTensor(`${lossType} micro-batch dlogp`, flatten(parts.flatMap((p) => p.dlogprobs)), flatten(whole.dlogprobs), EXACT);
    }
  });
});

describe('grpoLoss with a completion mask', () => {
  it('is the loss of the sequences with the masked tokens taken out: same loss, zero gradient there, the rest unchanged', () => {
    const sequences = randomBatch(37, 4);
    const random = seededRandom(38);
    const masked = sequences.map((s) => ({ ...s, mask: Array.from({ length: s.logprobs.length }, () => (random() < 0.4 ? 0 : 1)) }));
    const kept = (s: (typeof masked)[number], values: ArrayLike<number> | undefined) =>
      values ? Array.from(values).filter((_, t) => s.mask[t] !== 0) : undefined;
    const without = masked.map((s) => ({
      advantage: s.advantage,
      logprobs: kept(s, s.logprobs)!,
      ...(s.oldLogprobs ? { oldLogprobs: kept(s, s.oldLogprobs) } : {}),
      ...(s.refLogprobs ? { refLogprobs: kept(s, s.refLogprobs) } : {}),
    }));
    for (const lossType of LOSS_TYPES) {
      const options = { ...base, lossType };
      const withMask = grpoLoss(masked, options);
      const removed = grpoLoss(without, options);
      expect(withMask.loss).toBeCloseTo(removed.loss, 14);
      expect(withMask.tokens).toBe(removed.tokens);
      expect(withMask.kl).toBeCloseTo(removed.kl!, 14);
      masked.forEach((s, i) => {
        s.mask.forEach((m, t) => m === 0 && expect(withMask.dlogprobs[i][t]).toBe(0));
        checkTensor(`${lossType} dlogp kept`, kept(s, withMask.dlogprobs[i])!, Array.from(removed.dlogprobs[i]), EXACT);
      });
    }
  });
});

describe('grpoLoss input checks', () => {
  it('needs reference logprobs when beta > 0, and matching lengths', () => {
    const [s] = randomBatch(41, 1);
    expect(() => grpoLoss([{ ...s, refLogprobs: undefined }], { ...base, lossType: 'bnpo' })).toThrow(/Sequence 0 has no reference logprobs/);
    expect(() => grpoLoss([{ ...s, oldLogprobs: [...s.logprobs, -1] }], { ...base, lossType: 'bnpo' })).toThrow(/old logprobs for/);
    expect(() => grpoLoss([s], { ...base, lossType: 'dr_grpo', maxCompletionLength: 0 })).toThrow(/maxCompletionLength/);
  });
});
