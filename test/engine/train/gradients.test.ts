// The GPU trainer's logprobs, entropies (and the KL reference pass's logprobs) and accumulated
// gradients against the float64 reference trainer (RefTrainer), which runs each sequence alone: on
// micro-batches of sequences of different prompts and lengths, and on one whose sequences share a
// prompt (packed: the prompt's rows once). LoRA on all seven projections over an f32 base (qwen2 with
// biases, qwen3 with q/k norms, llama with tied embeddings) and over an int4 base (against the float64
// model of the int4 round-tripped weights), and every weight for full fine-tuning.
import { describe, expect, it } from 'vitest';
import type { ScoredSequence } from '../../../src/core/rl/index.ts';
import type { Architecture } from '../../../src/engine/model/index.ts';
import type { WeightFormat } from '../../../src/engine/runtime/index.ts';
import { GpuTrainer, RefTrainer } from '../../../src/engine/train/index.ts';
import { checkTensor } from '../../support/check-tensor.ts';
import { useTestDevice } from '../../support/webgpu.ts';
import { adapterPair, GROUPED, randomDLogp, SEQUENCES, tinyPair, type TinyPair } from './fixtures.ts';

const TEMPERATURE = 0.7;
const GRADIENT = { abs: 5e-6, rel: 5e-4 };
const LOGPROBS = { abs: 1e-5, rel: 1e-4 };

/** The GPU trainer's gradient under the reference's name: LoRA names differ, and row chunks are joined. */
function gpuName(grads: Map<string, Float32Array>, name: string): Float32Array {
  const lora = grads.get(name.replace(/\.([AB])$/, '.lora_$1'));
  if (lora) return lora;
  const chunks = [...grads].filter(([k]) => k === name || k.startsWith(`${name}#`)).map(([, g]) => g);
  expect(chunks.length, name).toBeGreaterThan(0);
  const out = new Float32Array(chunks.reduce((n, g) => n + g.length, 0));
  chunks.reduce((at, g) => (out.set(g, at), at + g.length), 0);
  return out;
}

/**
 * Runs both trainers over the micro-batches `parts` (the gradients accumulate over them), checking
 * logprobs and entropies (and with LoRA, the reference pass's logprobs), then every gradient.
 */
async function compareWithRef(pair: TinyPair, wrt: 'lora' | 'weights', parts: readonly (readonly ScoredSequence[])[]): Promise<void> {
  const adapters = adapterPair(pair.ref, 5);
  const optimizer = { lr: 0 };
  const gpu = await GpuTrainer.create(pair.gpu, wrt === 'lora' ? { wrt, lora: adapters.gpu, optimizer } : { wrt, optimizer });
  const ref = new RefTrainer(pair.ref, wrt === 'lora' ? { wrt, lora: adapters.ref, optimizer } : { wrt, optimizer });
  for (const [n, part] of parts.entries()) {
    const [g, r] = [await gpu.forward(part, TEMPERATURE), await ref.forward(part, TEMPERATURE)];
    part.forEach((_, i) => {
      checkTensor(`logprobs ${i}`, g.logprobs[i], r.logprobs[i], LOGPROBS);
      checkTensor(`entropy ${i}`, g.entropy[i], r.entropy[i], LOGPROBS);
    });
    if (wrt === 'lora') {
      const [gBase, rBase] = [await gpu.referenceLogprobs(part, TEMPERATURE), await ref.referenceLogprobs(part, TEMPERATURE)];
      part.forEach((_, i) => checkTensor(`reference logprobs ${i}`, gBase[i], rBase[i], LOGPROBS));
    }
    const dLogp = randomDLogp(part, 7 + n);
    await gpu.backward(dLogp);
    await ref.backward(dLogp);
  }
  const gpuGrads = await gpu.readGradients();
  const refGrads = ref.gradients();
  for (const [name, expected] of refGrads) {
    const got = gpuName(gpuGrads, name);
    // Every gradient must be non-zero somewhere, or the comparison proves nothing.
    expect(Math.max(...expected.map(Math.abs)), name).toBeGreaterThan(1e-6);
    checkTensor(name, got!, expected, GRADIENT);
  }
  gpu.destroy();
}

describe('GpuTrainer gradients against RefTrainer', () => {
  const device = useTestDevice();

  // 576 bytes hold 3 rows of logits (vocab 48) and 18 embedding rows: the head runs in row chunks and
  // the embedding and LM head are stored, and trained, in row chunks.
  const chunked = 3 * 48 * 4;
  const cases: { architecture: Architecture; weights: WeightFormat; tied: boolean; wrt: 'lora' | 'weights'; maxBindingBytes?: number }[] = [
    { architecture: 'qwen2', weights: 'f32', tied: false, wrt: 'lora' },
    { architecture: 'qwen3', weights: 'f32', tied: false, wrt: 'lora' },
    { architecture: 'llama', weights: 'f32', tied: true, wrt: 'lora' },
    { architecture: 'qwen3', weights: 'int4', tied: false, wrt: 'lora' },
    { architecture: 'qwen2', weights: 'f32', tied: false, wrt: 'weights' },
    { architecture: 'llama', weights: 'f32', tied: true, wrt: 'weights' },
    { architecture: 'qwen3', weights: 'f32', tied: false, wrt: 'lora', maxBindingBytes: chunked },
    { architecture: 'llama', weights: 'f32', tied: true, wrt: 'weights', maxBindingBytes: chunked },
  ];

  it.each(cases)(
    '$wrt over $architecture, $weights base, tied $tied, binding limit $maxBindingBytes',
    async ({ architecture, weights, tied, wrt, maxBindingBytes }) => {
      const pair = await tinyPair(device(), architecture, weights, { tied, ...(maxBindingBytes ? { maxBindingBytes } : {}) });
      try {
        if (maxBindingBytes) expect(pair.gpu.weights.embed.chunks.length).toBeGreaterThan(1);
        await compareWithRef(pair, wrt, [SEQUENCES.slice(0, 2), SEQUENCES.slice(2)]);
      } finally {
        await pair.cleanup();
      }
    },
  );

  // The packed pass: GROUPED's shared prompt forwarded and backpropagated once, each completion
  // attending it and its own tokens only, against RefTrainer's pass over each sequence alone.
  it.each([
    { architecture: 'qwen2', weights: 'f32', wrt: 'lora' },
    { architecture: 'qwen3', weights: 'f32', wrt: 'lora' },
    { architecture: 'qwen2', weights: 'int4', wrt: 'lora' },
    { architecture: 'qwen3', weights: 'int4', wrt: 'lora' },
    { architecture: 'qwen2', weights: 'f32', wrt: 'weights' },
    { architecture: 'qwen3', weights: 'f32', wrt: 'weights' },
  ] as const)('$wrt over $architecture, $weights base, a micro-batch sharing a prompt', async ({ architecture, weights, wrt }) => {
    const pair = await tinyPair(device(), architecture, weights);
    try {
      await compareWithRef(pair, wrt, [GROUPED]);
    } finally {
      await pair.cleanup();
    }
  });
});
