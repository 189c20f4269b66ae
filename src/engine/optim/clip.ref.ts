/**
 * Float64 reference of global gradient-norm clipping (torch.nn.utils.clip_grad_norm_ with norm_type 2):
 * the norm of all gradients taken as one vector, and the coefficient they are multiplied by. The
 * reduction is specified as clip.ts computes it: the sum of squares of the finite values and, apart,
 * how many values are NaN or infinite, so a poisoned step is recognised (and skipped) without trusting
 * NaN to survive a GPU compiler's arithmetic. clipCoefficient is also what the optimiser runs, on the
 * CPU, from the one scalar it reads back.
 */
import type { Vec } from '../kernels/index.ts';

/** clip_grad_norm_ divides by total + 1e-6, so a norm of exactly maxNorm is still scaled (by a hair). */
const NORM_EPS = 1e-6;

interface SumSquares {
  /** Sum of g^2 over every finite value of every gradient. */
  readonly sumSquares: number;
  /** Values that are NaN or +-infinity. */
  readonly nonFinite: number;
}

export function sumSquaresRef(grads: readonly Vec[]): SumSquares {
  let sumSquares = 0;
  let nonFinite = 0;
  for (const g of grads) {
    for (let i = 0; i < g.length; i++) {
      if (Number.isFinite(g[i])) sumSquares += g[i] * g[i];
      else nonFinite++;
    }
  }
  return { sumSquares, nonFinite };
}

/** The global L2 norm; NaN when any value is not finite (then the step must not be taken). */
export function globalNorm(s: SumSquares): number {
  return s.nonFinite > 0 ? NaN : Math.sqrt(s.sumSquares);
}

/** What clip_grad_norm_ multiplies the gradients by: maxNorm / (norm + 1e-6), capped at 1 (never scales up). */
export function clipCoefficient(norm: number, maxNorm: number): number {
  return Math.min(1, maxNorm / (norm + NORM_EPS));
}
