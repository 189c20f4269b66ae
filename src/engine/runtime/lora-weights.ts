/**
 * A LoRA adapter on the GPU, beside the frozen weights (never merged into them): for each adapted
 * module, A (r, in) and B (out, r) in f32, applied by linear.ts as out += scale * (x A^T) B^T.
 * Checked against the model's linear layers, so a mismatched adapter fails at load, not mid-run.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import { linearModules, loraScale, type LoraAdapter, type ModelConfig } from '../model/index.ts';
import { destroyTensor, uploadValues, type GpuTensor } from './gpu-tensor.ts';

export interface GpuLoraModule {
  readonly A: GpuTensor; // (r, in)
  readonly B: GpuTensor; // (out, r)
}

export interface GpuLora {
  readonly rank: number;
  readonly scale: number;
  /** By module path ('model.layers.0.self_attn.q_proj'), the weight name without '.weight'. */
  readonly modules: ReadonlyMap<string, GpuLoraModule>;
}

function mismatch(message: string, data: Record<string, unknown>): BatonError {
  return new BatonError({ code: 'engine/model-file', message: `LoRA adapter: ${message} Use an adapter trained for this base model.`, data });
}

export async function uploadLora(device: EngineDevice, adapter: LoraAdapter, config: ModelConfig): Promise<GpuLora> {
  const r = adapter.config.r;
  const known = new Map(linearModules(config).map((m) => [m.path, m]));
  const modules = new Map<string, GpuLoraModule>();
  try {
    for (const [path, w] of adapter.weights) {
      const m = known.get(path);
      if (!m) throw mismatch(`module ${path} is not a linear layer of this model.`, { module: path });
      if (w.inFeatures !== m.inFeatures || w.outFeatures !== m.outFeatures || w.A.length !== r * m.inFeatures || w.B.length !== m.outFeatures * r) {
        throw mismatch(
          `module ${path} has shapes A ${w.A.length}, B ${w.B.length} where rank ${r} and layer (${m.outFeatures}, ${m.inFeatures}) need ${r * m.inFeatures} and ${m.outFeatures * r}.`,
          {
            module: path,
          },
        );
      }
      modules.set(path, {
        A: await uploadValues(device, `${path}.lora_A`, w.A, r, m.inFeatures, 'f32'),
        B: await uploadValues(device, `${path}.lora_B`, w.B, m.outFeatures, r, 'f32'),
      });
    }
  } catch (e) {
    destroyLora(device, { rank: r, scale: 0, modules });
    throw e;
  }
  return { rank: r, scale: loraScale(adapter.config), modules };
}

export function destroyLora(device: EngineDevice, lora: GpuLora): void {
  for (const m of lora.modules.values()) {
    destroyTensor(device, m.A);
    destroyTensor(device, m.B);
  }
}
