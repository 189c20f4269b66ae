/**
 * GPU memory of a training run, part by part, from the model's shape alone: the arithmetic of what
 * GpuModel.load and GpuTrainer allocate (weights; trained tensors with gradients and AdamW moments;
 * each layer's saved input; one layer's recomputed activations and their gradients; one chunk of
 * logits; keys and values), and the check that refuses, before anything is allocated, a run whose
 * buffers exceed the adapter's per-buffer limits or whose total exceeds a budget.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { Dtype } from '../kernels/index.ts';
import { expectedShapes, isTargeted, linearModules, weightNames, type ModelConfig } from '../model/index.ts';
import { INT4_GROUP_SIZE, int4Fits } from '../quant/index.ts';
import type { WeightFormat } from '../runtime/index.ts';
import { headRowsPerChunk } from './head.ts';
import { layerGradientSizes } from './layer-backward.ts';
import { layerActivationSizes } from './layer-forward.ts';

export interface TrainingShape {
  /** Storage of the weights, as GpuModel.load's option. */
  weights: WeightFormat;
  /** With int4: the dtype of the other tensors and of the scales (f16 where the adapter has shader-f16). */
  floatDtype?: Dtype;
  /** With int4: whether the LM head is int4 too (GpuModel.load's int4Head, default true). */
  int4Head?: boolean;
  /** LoRA's rank and target modules, or 'full' for every weight. */
  train: { r: number; targetModules: readonly string[] } | 'full';
  /** Sequences per forward/backward (TrainStepOptions.microBatchSize). */
  microBatchSequences: number;
  /** The longest sequence, prompt and completion, in tokens. */
  maxSequenceLength: number;
  /**
   * The longest completion, when every micro-batch is sequences of one prompt (a GRPO group as the
   * micro-batch): the prompt's rows are then counted once (packed-batch.ts). Without it, a micro-batch's
   * sequences are counted as if none shared its prompt.
   */
  maxCompletionLength?: number;
  /** The storage binding limit: the head runs in row chunks of logits that fit it. */
  maxBindingBytes: number;
}

/** Bytes by part. */
export interface TrainingMemory {
  weights: number;
  /** LoRA's A and B with their gradients and two AdamW moments; for full fine-tuning, gradients and moments of every weight. */
  trained: number;
  /** Each layer's input and the last layer's output (activation checkpointing), with ids, targets, visibility rules and RoPE tables. */
  savedInputs: number;
  /** One layer's recomputed activations and their gradients (K/V apart), the residual's gradient and LoRA's products. */
  layerScratch: number;
  /** One row chunk of logits (rows, V) f32. */
  logits: number;
  /** One layer's rotated keys and values (T, KV, D) and their gradients. */
  kv: number;
  total: number;
  /** The largest single buffer: it must fit the adapter's maxBufferSize and maxStorageBufferBindingSize. */
  largestBuffer: { name: string; bytes: number };
}

const FLOAT_BYTES: Record<Dtype, number> = { f32: 4, f16: 2 };

function weightBytes(config: ModelConfig, shape: TrainingShape): number {
  const names = weightNames(config);
  const int4 = shape.weights === 'int4';
  const float = FLOAT_BYTES[int4 ? (shape.floatDtype ?? 'f16') : (shape.weights as Dtype)];
  const quantised = new Set(int4 ? names.layers.flatMap((l) => [l.q, l.k, l.v, l.o, l.gate, l.up, l.down]) : []);
  if (int4 && (shape.int4Head ?? true)) quantised.add(names.lmHead);
  let bytes = 0;
  for (const [name, dims] of expectedShapes(config)) {
    const [rows, cols] = dims.length === 1 ? [1, dims[0]] : [dims[0], dims[1]];
    bytes += quantised.has(name) && int4Fits(cols) ? rows * (cols / 2 + (cols / INT4_GROUP_SIZE) * float) : rows * cols * float;
  }
  return bytes;
}

function adaptedModules(config: ModelConfig, train: TrainingShape['train']) {
  return train === 'full' ? [] : linearModules(config).filter((m) => isTargeted(m.path, train.targetModules));
}

type RowsShape = Pick<TrainingShape, 'microBatchSequences' | 'maxSequenceLength' | 'maxCompletionLength'>;

/**
 * The most rows a micro-batch of this shape packs into (packed-batch.ts: a sequence of n tokens is
 * n - 1 rows; sequences of one prompt share its first P - 1): with completions of at most N tokens, one
 * prompt's P - 1 <= length - N - 1 rows and B segments of N rows; without N, B sequences apart.
 */
export function trainingRows({ microBatchSequences: B, maxSequenceLength: length, maxCompletionLength }: RowsShape): number {
  const N = Math.min(maxCompletionLength ?? length - 1, length - 1);
  return length - 1 - N + B * N;
}

/** A shape's micro-batch in words, for messages. */
export function describeLimits(shape: RowsShape): string {
  const completions = shape.maxCompletionLength === undefined ? '' : `, completions of up to ${shape.maxCompletionLength} tokens after one shared prompt`;
  return `${shape.microBatchSequences} sequences of up to ${shape.maxSequenceLength} tokens per micro-batch${completions}`;
}

export function estimateTrainingMemory(config: ModelConfig, shape: TrainingShape): TrainingMemory {
  const { hiddenSize: C, headDim: D, vocabSize: V, numLayers: L } = config;
  const T = trainingRows(shape);
  const f32 = 4;
  const weights = weightBytes(config, shape);
  const modules = adaptedModules(config, shape.train);
  const r = shape.train === 'full' ? 0 : shape.train.r;
  const trained =
    shape.train === 'full'
      ? 3 * f32 * [...expectedShapes(config).values()].reduce((n, d) => n + d.reduce((a, b) => a * b, 1), 0)
      : 4 * f32 * modules.reduce((n, m) => n + r * (m.inFeatures + m.outFeatures), 0);
  // ids, targets, visibility (4 a row) and RoPE tables (D a row)
  const savedInputs = f32 * ((L + 1) * T * C + 6 * T + T * D);

  const activations = layerActivationSizes(config, T);
  const gradients = layerGradientSizes(config, T, r);
  const kvParts = { kc: activations.kc, vc: activations.vc, dkc: gradients.dkc, dvc: gradients.dvc };
  const kv = f32 * Object.values(kvParts).reduce((a, b) => a + b, 0);
  const sum = (sizes: Record<string, number>) => Object.values(sizes).reduce((a, b) => a + b, 0);
  // dx, the final-normed rows and their gradient; LoRA's forward (T, r) product per adapted module.
  const layerScratch = f32 * (sum(activations) + sum(gradients) + 3 * T * C + modules.length * T * r) - kv;
  const rows = Math.min(T, headRowsPerChunk(V, shape.maxBindingBytes));
  const logits = f32 * rows * V;

  const buffers: [string, number][] = [
    ['one row chunk of logits', logits],
    ["a layer's saved input", f32 * T * C],
    ...Object.entries({ ...activations, ...gradients }).map(([name, n]): [string, number] => [`the activation ${name}`, f32 * n]),
  ];
  const [name, bytes] = buffers.reduce((a, b) => (b[1] > a[1] ? b : a));
  return {
    weights,
    trained,
    savedInputs,
    layerScratch,
    logits,
    kv,
    total: weights + trained + savedInputs + layerScratch + logits + kv,
    largestBuffer: { name, bytes },
  };
}

interface MemoryLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  /** Total bytes the run may take, when there is a budget. */
  budgetBytes?: number;
}

/** Bytes in the largest binary unit that leaves at least 1. */
function size(bytes: number): string {
  const [unit, scale]: [string, number] = bytes >= 2 ** 30 ? ['GiB', 2 ** 30] : bytes >= 2 ** 20 ? ['MiB', 2 ** 20] : ['KiB', 2 ** 10];
  return `${(bytes / scale).toFixed(1)} ${unit}`;
}

/** Refuses, in plain words, a run that will not fit: call before allocating anything. */
export function checkTrainingMemory(config: ModelConfig, shape: TrainingShape, limits: MemoryLimits): TrainingMemory {
  const memory = estimateTrainingMemory(config, shape);
  const perBuffer = Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize);
  const batch = describeLimits(shape);
  const refuse = (message: string) => new BatonError({ code: 'engine/out-of-memory', message, data: { ...memory, limits } });
  if (config.vocabSize * 4 > perBuffer) {
    throw refuse(
      `One row of logits (${config.vocabSize} tokens, ${size(config.vocabSize * 4)}) is above this GPU's ${size(perBuffer)} per buffer; this model cannot be trained here.`,
    );
  }
  if (memory.largestBuffer.bytes > perBuffer) {
    throw refuse(
      `Training with ${batch} needs one buffer of ${size(memory.largestBuffer.bytes)} (${memory.largestBuffer.name}), above this GPU's ${size(perBuffer)} per buffer; use fewer sequences per micro-batch or shorter sequences.`,
    );
  }
  if (limits.budgetBytes !== undefined && memory.total > limits.budgetBytes) {
    throw refuse(
      `Training with ${batch} needs about ${size(memory.total)} of GPU memory (weights ${size(memory.weights)}, trained tensors with gradients and AdamW moments ${size(memory.trained)}, saved layer inputs ${size(memory.savedInputs)}, one layer's recompute ${size(memory.layerScratch + memory.kv)}, logits ${size(memory.logits)}), above the budget of ${size(limits.budgetBytes)}; use fewer sequences per micro-batch, shorter sequences, int4 weights or a smaller LoRA rank.`,
    );
  }
  return memory;
}
