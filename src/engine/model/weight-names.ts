/**
 * Hugging Face tensor names of the supported decoder-only models (Qwen2, Qwen3, Llama share them).
 */
import type { ModelConfig } from './config.ts';

export interface LayerWeightNames {
  inputNorm: string; // (C)
  q: string; // (H*D, C)
  k: string; // (KV*D, C)
  v: string; // (KV*D, C)
  o: string; // (C, H*D)
  /** Present when config.attentionBias (Qwen2). */
  qBias?: string; // (H*D)
  kBias?: string; // (KV*D)
  vBias?: string; // (KV*D)
  /** Present when config.qkNorm (Qwen3). */
  qNorm?: string; // (D)
  kNorm?: string; // (D)
  postNorm: string; // (C)
  gate: string; // (I, C)
  up: string; // (I, C)
  down: string; // (C, I)
}

interface WeightNames {
  embed: string; // (V, C)
  layers: LayerWeightNames[];
  norm: string; // (C)
  /** 'lm_head.weight', or the embedding's name when the embeddings are tied. */
  lmHead: string; // (V, C)
}

export function weightNames(config: ModelConfig): WeightNames {
  const layers: LayerWeightNames[] = [];
  for (let i = 0; i < config.numLayers; i++) {
    const p = `model.layers.${i}`;
    layers.push({
      inputNorm: `${p}.input_layernorm.weight`,
      q: `${p}.self_attn.q_proj.weight`,
      k: `${p}.self_attn.k_proj.weight`,
      v: `${p}.self_attn.v_proj.weight`,
      o: `${p}.self_attn.o_proj.weight`,
      ...(config.attentionBias ? { qBias: `${p}.self_attn.q_proj.bias`, kBias: `${p}.self_attn.k_proj.bias`, vBias: `${p}.self_attn.v_proj.bias` } : {}),
      ...(config.qkNorm ? { qNorm: `${p}.self_attn.q_norm.weight`, kNorm: `${p}.self_attn.k_norm.weight` } : {}),
      postNorm: `${p}.post_attention_layernorm.weight`,
      gate: `${p}.mlp.gate_proj.weight`,
      up: `${p}.mlp.up_proj.weight`,
      down: `${p}.mlp.down_proj.weight`,
    });
  }
  const embed = 'model.embed_tokens.weight';
  return { embed, layers, norm: 'model.norm.weight', lmHead: config.tieWordEmbeddings ? embed : 'lm_head.weight' };
}

/** Every tensor the model needs with its expected shape, each name once. */
export function expectedShapes(config: ModelConfig): Map<string, number[]> {
  const { hiddenSize: C, intermediateSize: I, numHeads: H, numKvHeads: KV, headDim: D, vocabSize: V } = config;
  const names = weightNames(config);
  const shapes = new Map<string, number[]>([[names.embed, [V, C]]]);
  for (const l of names.layers) {
    shapes.set(l.inputNorm, [C]);
    shapes.set(l.q, [H * D, C]);
    shapes.set(l.k, [KV * D, C]);
    shapes.set(l.v, [KV * D, C]);
    shapes.set(l.o, [C, H * D]);
    if (l.qBias && l.kBias && l.vBias) {
      shapes.set(l.qBias, [H * D]);
      shapes.set(l.kBias, [KV * D]);
      shapes.set(l.vBias, [KV * D]);
    }
    if (l.qNorm && l.kNorm) {
      shapes.set(l.qNorm, [D]);
      shapes.set(l.kNorm, [D]);
    }
    shapes.set(l.postNorm, [C]);
    shapes.set(l.gate, [I, C]);
    shapes.set(l.up, [I, C]);
    shapes.set(l.down, [C, I]);
  }
  shapes.set(names.norm, [C]);
  shapes.set(names.lmHead, [V, C]);
  return shapes;
}
