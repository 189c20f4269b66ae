/**
 * A LoRA adapter folded into its base model, for servers that load no adapters: every adapted linear
 * layer becomes W' = W + (alpha / r) B A, summed in float64 and stored in the base's own dtype (F32, F16
 * or BF16), every other tensor copied unchanged. The merged weights keep the base's file layout (one
 * model.safetensors, or the same shards under the same index), written one file at a time, so a model
 * is never held in memory whole.
 */
import { BatonError } from '../../core/errors/index.ts';
import { loraScale, type LoraAdapter, type LoraWeights } from './lora.ts';
import { writeSafetensors, type TensorToWrite } from './safetensors.ts';
import type { TensorSource } from './tensor-source.ts';

/** W (out, in) += scale * B (out, r) A (r, in), in place. */
function addLoraDelta(w: Float32Array, lora: LoraWeights, r: number, scale: number): void {
  const { A, B, inFeatures: n, outFeatures: m } = lora;
  const row = new Float64Array(n);
  for (let o = 0; o < m; o++) {
    row.fill(0);
    for (let k = 0; k < r; k++) {
      const b = B[o * r + k];
      if (b === 0) continue;
      for (let i = 0; i < n; i++) row[i] += b * A[k * n + i];
    }
    for (let i = 0; i < n; i++) w[o * n + i] = w[o * n + i] + scale * row[i];
  }
}

/**
 * Writes each weight file of `tensors` with the adapter merged in, through `write(file, bytes)`; returns
 * the adapted module paths. Every adapter module must exist in the base with its shape.
 */
export async function mergeLora(tensors: TensorSource, adapter: LoraAdapter, write: (file: string, bytes: Uint8Array) => Promise<void>): Promise<string[]> {
  const scale = loraScale(adapter.config);
  for (const [path, lora] of adapter.weights) {
    const info = tensors.tensors.get(`${path}.weight`);
    if (!info || info.shape[0] !== lora.outFeatures || info.shape[1] !== lora.inFeatures) {
      throw new BatonError({
        code: 'engine/model-file',
        message: `the adapter's module ${path} [${lora.outFeatures} x ${lora.inFeatures}] is not in this base model${info ? ` (it has [${info.shape}])` : ''}; merge it into the model it was trained on.`,
        data: { module: path },
      });
    }
  }
  const byFile = new Map<string, string[]>();
  for (const info of tensors.tensors.values()) byFile.set(info.file, [...(byFile.get(info.file) ?? []), info.name]);
  for (const [file, names] of byFile) {
    const out: TensorToWrite[] = [];
    for (const name of names) {
      const info = tensors.tensors.get(name)!;
      const data = await tensors.read(name);
      const lora = name.endsWith('.weight') ? adapter.weights.get(name.slice(0, -'.weight'.length)) : undefined;
      if (lora) addLoraDelta(data, lora, adapter.config.r, scale);
      out.push({ name, dtype: info.dtype, shape: info.shape, data });
    }
    await write(file, writeSafetensors(out, { format: 'pt' }));
  }
  return [...adapter.weights.keys()];
}
