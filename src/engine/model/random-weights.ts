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

/**
 * Initial weights of a model to train from scratch, as Hugging Face initialises Qwen2/3 and Llama
 * (_init_weights): matrices normal(0, std), std being the config's initializer_range (0.02), norms 1,
 * biases 0; unlike randomWeight's test weights, whose sharp logits would leave RL nothing to explore.
 * One departure: the embedding and the LM head are normal(0, 1 / sqrt(hidden)), rows of unit length,
 * so the head's logits start with unit spread. With 0.02 they could never spread beyond about
 * hidden x 0.02 (the normed hidden state is sqrt(hidden) long), too little for a LoRA adapter on a
 * frozen random base to make any choice likely.
 */
export function initialWeight(name: string, shape: number[], random: () => number, std = 0.02): Float32Array {
  const n = shape.reduce((a, b) => a * b, 1);
  if (name.endsWith('norm.weight')) return new Float32Array(n).fill(1);
  if (name.endsWith('.bias')) return new Float32Array(n);
  const scale = name.endsWith('embed_tokens.weight') || name.endsWith('lm_head.weight') ? 1 / Math.sqrt(shape[1]) : std;
  // Box-Muller: two uniforms to one standard normal.
  return new Float32Array(n).map(() => scale * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
}
