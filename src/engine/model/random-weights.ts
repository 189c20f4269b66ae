/**
 * Seeded random initial weights for tiny models (tests, the untrained demo Conductor), scaled so that
 * activations stay O(1): linear weights uniform in +-sqrt(3 / in), norms near 1, biases small,
 * embeddings in +-1. Never zeros, which would hide indexing bugs.
 */
export function randomWeight(name: string, shape: number[], random: () => number): Float32Array {
  const n = shape.reduce((a, b) => a * b, 1);
  const u = () => 2 * random() - 1;
  if (name.endsWith('norm.weight')) return new Float32Array(n).map(() => 1 + 0.2 * u());
  if (name.endsWith('.bias')) return new Float32Array(n).map(() => 0.1 * u());
  if (name.endsWith('embed_tokens.weight')) return new Float32Array(n).map(() => u());
  const bound = Math.sqrt(3 / shape[1]);
  return new Float32Array(n).map(() => bound * u());
}
