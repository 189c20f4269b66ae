/**
 * The kernel dispatches one decode step of `generate` encodes at batch 1 (the forward pass, the LM head and,
 * where the model samples on the GPU, the sampler): two new tokens' dispatches less one's, so the prompt's
 * prefill cancels out. The bench reports it as dispatchesPerDecodeStep; the tests pin it. Greedy unless
 * `sampling` says otherwise.
 */
import type { GpuModel } from './gpu-model.ts';
import type { SamplingOptions } from './sampling.ts';

export async function dispatchesPerDecodeStep(model: GpuModel, prompt: readonly number[], sampling?: SamplingOptions): Promise<number> {
  const dispatches = async (maxNewTokens: number) => {
    const before = model.device.dispatches;
    await model.generate(prompt, { maxNewTokens, stopTokens: [], ...(sampling ? { sampling } : {}) });
    return model.device.dispatches - before;
  };
  return (await dispatches(2)) - (await dispatches(1));
}
