/** What every float64 reference reads: any array of numbers (Float32Array, Float64Array, number[]). */
export type Vec = ArrayLike<number>;
