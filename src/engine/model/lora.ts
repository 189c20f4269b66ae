/**
 * LoRA adapters in the PEFT layout, so vLLM, PEFT and TRL load what Baton trains:
 * adapter_config.json { peft_type: "LORA", r, lora_alpha, target_modules, lora_dropout, ... } and
 * adapter_model.safetensors with base_model.model.<module>.lora_A.weight (r, in) and .lora_B.weight (out, r).
 * The adapted layer computes y = x W^T + b + (alpha / r) * (x A^T) B^T.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { ModelConfig } from './config.ts';
import { readJson, type ModelFiles } from './files.ts';
import { decodeTensor, headerLength, parseHeader, writeSafetensors, type TensorToWrite } from './safetensors.ts';

interface LoraConfig {
  r: number;
  alpha: number;
  /** Module names as PEFT matches them: the last path part ('q_proj') or a full module path. */
  targetModules: string[];
  dropout: number;
  baseModel?: string;
}

export interface LoraWeights {
  A: Float32Array; // (r, in)
  B: Float32Array; // (out, r)
  inFeatures: number;
  outFeatures: number;
}

export interface LoraAdapter {
  config: LoraConfig;
  /** Keyed by HF module path, e.g. 'model.layers.0.self_attn.q_proj'. */
  weights: Map<string, LoraWeights>;
}

interface LinearModule {
  path: string;
  inFeatures: number;
  outFeatures: number;
}

export const ADAPTER_CONFIG = 'adapter_config.json';
export const ADAPTER_WEIGHTS = 'adapter_model.safetensors';
const KEY = /^base_model\.model\.(.+)\.lora_([AB])(?:\.[^.]+)?\.weight$/;

export function loraScale(config: LoraConfig): number {
  return config.alpha / config.r;
}

/** Every linear layer of the model that LoRA can adapt, in layer order. */
export function linearModules(model: ModelConfig): LinearModule[] {
  const { hiddenSize: C, intermediateSize: I, numHeads: H, numKvHeads: KV, headDim: D } = model;
  const shapes: [string, number, number][] = [
    ['self_attn.q_proj', C, H * D],
    ['self_attn.k_proj', C, KV * D],
    ['self_attn.v_proj', C, KV * D],
    ['self_attn.o_proj', H * D, C],
    ['mlp.gate_proj', C, I],
    ['mlp.up_proj', C, I],
    ['mlp.down_proj', I, C],
  ];
  const out: LinearModule[] = [];
  for (let i = 0; i < model.numLayers; i++) {
    for (const [name, inFeatures, outFeatures] of shapes) out.push({ path: `model.layers.${i}.${name}`, inFeatures, outFeatures });
  }
  return out;
}

/** PEFT's rule: a target matches a module whose path equals it or ends with '.' + it. */
export function isTargeted(path: string, targetModules: readonly string[]): boolean {
  return targetModules.some((t) => path === t || path.endsWith(`.${t}`));
}

/**
 * A fresh adapter as PEFT initialises one: A uniform in +-1/sqrt(in) (kaiming-uniform, a = sqrt(5)),
 * B zero, so the adapted model starts equal to the base. `random` returns values in [0, 1).
 */
export function initLoraAdapter(model: ModelConfig, config: LoraConfig, random: () => number): LoraAdapter {
  const weights = new Map<string, LoraWeights>();
  for (const m of linearModules(model)) {
    if (!isTargeted(m.path, config.targetModules)) continue;
    const bound = 1 / Math.sqrt(m.inFeatures);
    const A = new Float32Array(config.r * m.inFeatures).map(() => (2 * random() - 1) * bound);
    weights.set(m.path, { A, B: new Float32Array(m.outFeatures * config.r), inFeatures: m.inFeatures, outFeatures: m.outFeatures });
  }
  if (weights.size === 0) {
    throw new BatonError({
      code: 'run/config',
      message: `LoRA target_modules ${JSON.stringify(config.targetModules)} match no layer; use names like q_proj, v_proj.`,
    });
  }
  return { config, weights };
}

function badAdapter(files: ModelFiles, message: string, data: Record<string, unknown> = {}): never {
  throw new BatonError({ code: 'engine/model-file', message: `LoRA adapter in ${files.name}: ${message}`, data: { source: files.name, ...data } });
}

function parseLoraConfig(json: unknown, files: ModelFiles): LoraConfig {
  const c = (json ?? {}) as Record<string, unknown>;
  if (c.peft_type !== undefined && c.peft_type !== 'LORA') badAdapter(files, `peft_type is ${String(c.peft_type)}, not LORA.`);
  const unsupported = ['use_rslora', 'use_dora', 'fan_in_fan_out'].filter((k) => c[k] === true);
  for (const k of ['rank_pattern', 'alpha_pattern']) {
    if (c[k] && typeof c[k] === 'object' && Object.keys(c[k] as object).length > 0) unsupported.push(k);
  }
  if (unsupported.length > 0) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `LoRA adapter in ${files.name} uses ${unsupported.join(', ')}, which the engine does not support.`,
      data: { source: files.name, options: unsupported },
    });
  }
  const r = c.r;
  const alpha = c.lora_alpha ?? r;
  if (typeof r !== 'number' || !Number.isInteger(r) || r <= 0) badAdapter(files, `r must be a positive integer, got ${JSON.stringify(r)}.`);
  if (typeof alpha !== 'number' || !Number.isFinite(alpha)) badAdapter(files, `lora_alpha must be a number.`);
  const targets = c.target_modules;
  const targetModules = typeof targets === 'string' ? [targets] : Array.isArray(targets) ? targets.map(String) : [];
  return {
    r,
    alpha,
    targetModules,
    dropout: typeof c.lora_dropout === 'number' ? c.lora_dropout : 0,
    ...(typeof c.base_model_name_or_path === 'string' ? { baseModel: c.base_model_name_or_path } : {}),
  };
}

/**
 * Reads a PEFT adapter. With `model`, each module is checked to exist in the model with matching
 * sizes, so a wrong base model fails here and not as garbage output.
 */
export async function readPeftAdapter(files: ModelFiles, model?: ModelConfig): Promise<LoraAdapter> {
  const config = parseLoraConfig(await readJson(files, ADAPTER_CONFIG), files);
  const bytes = await files.read(ADAPTER_WEIGHTS);
  const len = headerLength(bytes.subarray(0, 8), ADAPTER_WEIGHTS, bytes.byteLength);
  const infos = parseHeader(bytes.subarray(8, 8 + len), ADAPTER_WEIGHTS, bytes.byteLength);
  const parts = new Map<string, { A?: Float32Array; B?: Float32Array; aShape?: number[]; bShape?: number[] }>();
  for (const info of infos) {
    const m = KEY.exec(info.name);
    if (!m) continue; // PEFT may save other tensors (modules_to_save); the engine does not use them
    const entry = parts.get(m[1]) ?? {};
    const data = decodeTensor(bytes.subarray(info.offset, info.offset + info.byteLength), info);
    if (m[2] === 'A') Object.assign(entry, { A: data, aShape: info.shape });
    else Object.assign(entry, { B: data, bShape: info.shape });
    parts.set(m[1], entry);
  }
  const modules = model ? new Map(linearModules(model).map((m) => [m.path, m])) : undefined;
  const weights = new Map<string, LoraWeights>();
  for (const [path, { A, B, aShape, bShape }] of parts) {
    if (!A || !B || !aShape || !bShape) badAdapter(files, `module ${path} has only one of lora_A and lora_B.`, { module: path });
    if (aShape.length !== 2 || bShape.length !== 2 || aShape[0] !== config.r || bShape[1] !== config.r) {
      badAdapter(files, `module ${path}: lora_A [${aShape}] and lora_B [${bShape}] do not fit r = ${config.r}.`, { module: path });
    }
    const w = { A, B, inFeatures: aShape[1], outFeatures: bShape[0] };
    if (modules) {
      const m = modules.get(path);
      if (!m || m.inFeatures !== w.inFeatures || m.outFeatures !== w.outFeatures) {
        badAdapter(
          files,
          `module ${path} [${w.outFeatures} x ${w.inFeatures}] does not exist in this model; the adapter was trained for another base model${config.baseModel ? ` (${config.baseModel})` : ''}.`,
          { module: path },
        );
      }
    }
    weights.set(path, w);
  }
  if (weights.size === 0) badAdapter(files, `${ADAPTER_WEIGHTS} holds no lora_A/lora_B tensors.`);
  return { config, weights };
}

export function writePeftAdapter(adapter: LoraAdapter): {
  'adapter_config.json': Uint8Array<ArrayBuffer>;
  'adapter_model.safetensors': Uint8Array<ArrayBuffer>;
} {
  const c = adapter.config;
  const config = {
    peft_type: 'LORA',
    task_type: 'CAUSAL_LM',
    r: c.r,
    lora_alpha: c.alpha,
    lora_dropout: c.dropout,
    target_modules: c.targetModules,
    base_model_name_or_path: c.baseModel ?? null,
    bias: 'none',
    fan_in_fan_out: false,
    use_rslora: false,
    use_dora: false,
    modules_to_save: null,
    inference_mode: true,
  };
  const tensors: TensorToWrite[] = [];
  for (const [path, w] of adapter.weights) {
    tensors.push({ name: `base_model.model.${path}.lora_A.weight`, dtype: 'F32', shape: [c.r, w.inFeatures], data: w.A });
    tensors.push({ name: `base_model.model.${path}.lora_B.weight`, dtype: 'F32', shape: [w.outFeatures, c.r], data: w.B });
  }
  return {
    'adapter_config.json': new TextEncoder().encode(JSON.stringify(config, null, 2) + '\n'),
    'adapter_model.safetensors': writeSafetensors(tensors, { format: 'pt' }),
  };
}
