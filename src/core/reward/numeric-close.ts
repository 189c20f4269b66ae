/** Tolerances for calling two computed values equal: relative 1e-6, or absolute 1e-9 near zero. */
const RELATIVE_TOLERANCE = 1e-6;
const ABSOLUTE_TOLERANCE = 1e-9;

export function numbersClose(a: number, b: number): boolean {
  if (a === b) return true; // also equal infinities
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= Math.max(ABSOLUTE_TOLERANCE, RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b)));
}
