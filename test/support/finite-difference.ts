/**
 * Gradients by central differences, the check every backward pass must pass (llm.c checks its backward
 * the same way): d loss / d x[i] ~ (f(x + h e_i) - f(x - h e_i)) / 2h, in float64, for a loss that is
 * a scalar function of one flat input. The analytic gradient (a float64 reference's, or a GPU
 * kernel's) is then compared with checkTensor. Central differences err by O(h^2) times the third
 * derivative, so h = 1e-5 on inputs of order 1 agrees with an exact float64 gradient to ~1e-9 relative.
 */
import { checkTensor, type Tolerance } from './check-tensor.ts';

export interface FiniteDifferenceOptions {
  /** Step (default 1e-5). */
  h?: number;
  /** Which indices to differentiate (default all); sample a few where the input is large. */
  indices?: readonly number[];
}

/** The numeric gradient of `loss` at `x`, at `indices` (in that order). `x` is left as it was. */
export function numericGradient(loss: (x: Float64Array) => number, x: ArrayLike<number>, options: FiniteDifferenceOptions = {}): Float64Array {
  const h = options.h ?? 1e-5;
  const at = Float64Array.from(x);
  const indices = options.indices ?? Array.from(at, (_, i) => i);
  return Float64Array.from(indices, (i) => {
    const keep = at[i];
    at[i] = keep + h;
    const up = loss(at);
    at[i] = keep - h;
    const down = loss(at);
    at[i] = keep;
    return (up - down) / (2 * h);
  });
}

/** Float64 references against central differences: tight, since both sides are float64. */
export const FD_TOLERANCE: Tolerance = { abs: 1e-7, rel: 1e-5 };

/**
 * Checks an analytic gradient of `loss` at `x` against central differences, at `indices` (default all).
 * `analytic` is the full gradient (same length as x).
 */
export function checkGradient(
  name: string,
  loss: (x: Float64Array) => number,
  x: ArrayLike<number>,
  analytic: ArrayLike<number>,
  options: FiniteDifferenceOptions & { tolerance?: Tolerance } = {},
): void {
  if (analytic.length !== x.length) throw new Error(`${name}: gradient length ${analytic.length}, input length ${x.length}`);
  const indices = options.indices ?? Array.from({ length: x.length }, (_, i) => i);
  if (indices.length === 0) throw new Error(`${name}: no indices to check`);
  const numeric = numericGradient(loss, x, { ...options, indices });
  checkTensor(
    `${name} (d/dx vs central differences)`,
    Float64Array.from(indices, (i) => analytic[i]),
    numeric,
    options.tolerance ?? FD_TOLERANCE,
  );
}

/**
 * sum_i dy[i] * y[i]: the scalar loss whose gradient, for y = f(x), is f's backward given dy. Random
 * non-zero dy makes every output count, so a backward that drops or misplaces one term shows.
 */
export function weightedSum(dy: ArrayLike<number>, y: ArrayLike<number>): number {
  if (dy.length !== y.length) throw new Error(`weightedSum: ${dy.length} weights for ${y.length} values`);
  let s = 0;
  for (let i = 0; i < y.length; i++) s += dy[i] * y[i];
  return s;
}
