// adamwRef against torch.optim.AdamW's algorithm as its documentation writes it (bias-corrected
// moments m_hat, v_hat, decay applied to the old parameter first), re-derived here step by step in an
// independent loop, and against a first step worked out by hand.
import { describe, expect, it } from 'vitest';
import { adamwRef, type AdamWHyper, type AdamWState } from '../../../../src/engine/optim/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';

const HYPER = { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, clip: 1 };

/** The documented algorithm: theta <- theta - lr wd theta; m, v; m_hat = m / (1 - b1^t); v_hat = v / (1 - b2^t); theta <- theta - lr m_hat / (sqrt(v_hat) + eps). */
function documentedAdamW(theta: number[], grads: number[][], h: Omit<AdamWHyper, 'step'>) {
  const m = theta.map(() => 0);
  const v = theta.map(() => 0);
  const p = [...theta];
  grads.forEach((g, s) => {
    const t = s + 1;
    for (let i = 0; i < p.length; i++) {
      const gi = g[i] * h.clip;
      p[i] -= h.lr * h.weightDecay * p[i];
      m[i] = h.beta1 * m[i] + (1 - h.beta1) * gi;
      v[i] = h.beta2 * v[i] + (1 - h.beta2) * gi * gi;
      const mHat = m[i] / (1 - h.beta1 ** t);
      const vHat = v[i] / (1 - h.beta2 ** t);
      p[i] -= (h.lr * mHat) / (Math.sqrt(vHat) + h.eps);
    }
  });
  return { p, m, v };
}

describe('adamwRef', () => {
  it('takes a first step worked out by hand', () => {
    // p 1, g 0.5: p decays to 0.999; m 0.05, v 0.00025; m_hat 0.5, v_hat 0.25; update 0.1 * 0.5 / (0.5 + 1e-8).
    const out = adamwRef([1], [0.5], [0], [0], { ...HYPER, step: 0 });
    expect(out.m[0]).toBeCloseTo(0.05, 15);
    expect(out.v[0]).toBeCloseTo(0.00025, 15);
    expect(out.param[0]).toBeCloseTo(0.899000002, 15);
  });

  it('scales the gradient by the clip coefficient before both moments', () => {
    const out = adamwRef([1], [0.5], [0], [0], { ...HYPER, step: 0, clip: 0.5 });
    expect(out.m[0]).toBeCloseTo(0.025, 15);
    expect(out.v[0]).toBeCloseTo(0.0000625, 15);
  });

  it('follows the documented algorithm over five steps with decay and clipping', () => {
    const n = 7;
    const theta = Array.from(randomTensor(n, 1, -2, 2));
    const grads = Array.from({ length: 5 }, (_, s) => Array.from(randomTensor(n, 10 + s, -1, 1)));
    const h = { ...HYPER, lr: 0.03, weightDecay: 0.1, clip: 0.7 };
    let state: AdamWState = { param: Float64Array.from(theta), m: new Float64Array(n), v: new Float64Array(n) };
    grads.forEach((g, step) => {
      state = adamwRef(state.param, g, state.m, state.v, { ...h, step });
    });
    const want = documentedAdamW(theta, grads, h);
    for (let i = 0; i < n; i++) {
      expect(state.param[i]).toBeCloseTo(want.p[i], 13);
      expect(state.m[i]).toBeCloseTo(want.m[i], 15);
      expect(state.v[i]).toBeCloseTo(want.v[i], 15);
    }
  });

  it('leaves its inputs as they were', () => {
    const p = [0.3, -0.2];
    const m = [0.01, 0.02];
    adamwRef(p, [1, -1], m, [0.1, 0.1], { ...HYPER, step: 3 });
    expect(p).toEqual([0.3, -0.2]);
    expect(m).toEqual([0.01, 0.02]);
  });
});
