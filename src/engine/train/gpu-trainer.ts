/**
 * core/rl's DifferentiablePolicy on the GPU: Baton's engine backpropagating through the whole model,
 * so that core/rl's grpoStep trains a loaded GpuModel. A port of trainer.ref.ts (RefTrainer), which
 * the tests hold it to (test/engine/train/).
 *
 * What trains: the LoRA A and B buffers the model itself samples with (after applyGradients the next
 * generate and logprobs use the updated adapter; nothing goes through the CPU), over f32, f16 or int4
 * frozen base weights; or every weight, as f32 master weights (full fine-tuning).
 *
 * A micro-batch of sequences is packed into T rows (packed-batch.ts): a prompt that several sequences
 * share (a GRPO group's) is forwarded and backpropagated once, each sequence attending its prompt's rows
 * and its own; rows that predict no completion token (the shared prompt's) get dLogp = 0. It runs as:
 *  - forward: one command batch: embedding, the layers (each layer's input saved: per-layer activation
 *    checkpointing), the head's logprobs and entropy; one read-back of (2, T) floats.
 *  - backward: one command batch: the head's backward (logits recomputed), then per layer from the
 *    last, its forward recomputed from the saved input and its backward, gradients accumulating in
 *    TrainedWeights' buffers across micro-batches.
 * referenceLogprobs is the forward with the adapter left out, keeping nothing. Full fine-tuning has
 * no KL reference: it would need a frozen copy of every weight, which this trainer does not keep, so
 * it refuses referenceLogprobs (grpoStep calls it only when beta > 0). Its training state (exportState)
 * is every weight as a safetensors file under the model's own tensor names, beside AdamW's moments.
 * Calls must not overlap each other or the model's own passes (grpoStep and the RL loop await each).
 */
import { BatonError } from '../../core/errors/index.ts';
import type {
  DifferentiablePolicy,
  GradientStep,
  OptimizerOptions,
  ScoredSequence,
  SequenceScores,
  TrainingState,
  WeightsTrainingState,
} from '../../core/rl/index.ts';
import type { EngineDevice } from '../device/index.ts';
import { embeddingBackward, ropeTable, tokensById } from '../kernels/index.ts';
import {
  elementCount,
  expectedShapes,
  filesFromMemory,
  openTensorSource,
  readPeftAdapter,
  ropeInvFreq,
  SINGLE_FILE,
  writePeftAdapter,
  writeSafetensors,
  type LoraAdapter,
  type LoraWeights,
  type TensorToWrite,
} from '../model/index.ts';
import { AdamW } from '../optim/index.ts';
import { encodeEmbedding, Scratch, type GpuLora, type GpuModel, type GpuTensor } from '../runtime/index.ts';
import { encodeHeadBackward, encodeHeadForward, headRowsPerChunk } from './head.ts';
import { encodeLayerBackward, layerGradients } from './layer-backward.ts';
import { encodeLayerForward, layerActivations } from './layer-forward.ts';
import { checkTrainingMemory, describeLimits, trainingRows } from './memory.ts';
import { packSequences, type PackedBatch } from './packed-batch.ts';
import { modelTensors, TrainedWeights } from './trained-weights.ts';
import type { TrainingPass } from './training-pass.ts';

export interface GpuTrainerOptions {
  /**
   * 'lora': the adapter's A and B (the adapter is put on the model; a new one should start as PEFT's,
   * model/lora.ts initLoraAdapter, B = 0). 'weights': every weight (the model loaded with f32 weights).
   */
  wrt: 'lora' | 'weights';
  lora?: LoraAdapter;
  optimizer: OptimizerOptions;
  /**
   * The largest micro-batch the run will use (memory.ts's TrainingShape: its sequences, the longest,
   * and with maxCompletionLength, micro-batches of one shared prompt each): when given, the memory of
   * its packed rows is checked against the adapter's buffer limits (and `budgetBytes`) before anything
   * is allocated, and forward refuses micro-batches that pack to more rows.
   */
  limits?: { microBatchSequences: number; maxSequenceLength: number; maxCompletionLength?: number; budgetBytes?: number };
}

/** What the forward keeps for the backward: the packed batch on the GPU and each layer's input. */
interface Saved {
  readonly sequences: readonly ScoredSequence[];
  readonly pass: Omit<TrainingPass, 'scratch' | 'grads'>;
  readonly packed: PackedBatch;
  readonly targets: GPUBuffer;
  readonly inputs: readonly GPUBuffer[]; // (L + 1) x (T, C): layer l's input; the last, the head's
  readonly invTemperature: number;
  readonly buffers: Scratch;
}

export class GpuTrainer implements DifferentiablePolicy {
  readonly #model: GpuModel;
  readonly #device: EngineDevice;
  readonly #lora: LoraAdapter | undefined;
  /** The model's adapter buffers this trainer updates (LoRA), to notice a setLora that replaced them. */
  readonly #gpuLora: GpuLora | undefined;
  readonly #trained: TrainedWeights;
  readonly #adamw: AdamW;
  readonly #invFreq: Float64Array;
  readonly #limits: GpuTrainerOptions['limits'];
  #saved: Saved | undefined;

  private constructor(model: GpuModel, lora: LoraAdapter | undefined, trained: TrainedWeights, adamw: AdamW, limits: GpuTrainerOptions['limits']) {
    this.#model = model;
    this.#limits = limits;
    this.#device = model.device;
    this.#lora = lora;
    this.#gpuLora = model.lora;
    this.#trained = trained;
    this.#adamw = adamw;
    this.#invFreq = ropeInvFreq(model.config);
  }

  /** A trainer of `model`'s adapter (put on the model now) or of all its weights, with a fresh AdamW. */
  static async create(model: GpuModel, options: GpuTrainerOptions): Promise<GpuTrainer> {
    if (options.wrt === 'lora' && !options.lora) {
      throw new BatonError({ code: 'internal', message: 'Training LoRA needs an adapter: give a new one (initLoraAdapter) or one to continue.' });
    }
    if (options.limits) {
      const { weights, device } = model;
      const { budgetBytes, ...sizes } = options.limits;
      const lora = options.lora?.config;
      checkTrainingMemory(
        model.config,
        {
          weights: weights.format,
          floatDtype: weights.dtype,
          int4Head: weights.lmHead.int4 !== undefined,
          train: options.wrt === 'lora' && lora ? { r: lora.r, targetModules: lora.targetModules } : 'full',
          ...sizes,
          maxBindingBytes: model.maxBindingBytes,
        },
        {
          maxBufferSize: device.caps.maxBufferSize,
          maxStorageBufferBindingSize: device.caps.maxStorageBufferBindingSize,
          ...(budgetBytes === undefined ? {} : { budgetBytes }),
        },
      );
    }
    let trained: TrainedWeights;
    if (options.wrt === 'lora') {
      await model.setLora(options.lora!);
      trained = TrainedWeights.lora(model.device, model.lora!);
    } else {
      trained = TrainedWeights.full(model.device, model.weights);
    }
    try {
      return new GpuTrainer(
        model,
        options.wrt === 'lora' ? options.lora : undefined,
        trained,
        new AdamW(model.device, trained.parameters, options.optimizer),
        options.limits,
      );
    } catch (e) {
      trained.destroy();
      throw e;
    }
  }

  get step(): number {
    return this.#adamw.stepCount;
  }

  async forward(sequences: readonly ScoredSequence[], temperature: number): Promise<SequenceScores> {
    this.#checkAdapter();
    this.#release();
    const { saved, out } = await this.#forward(sequences, temperature, this.#model.lora);
    this.#saved = saved;
    return { logprobs: completions(sequences, saved.packed, out), entropy: completions(sequences, saved.packed, out.subarray(saved.pass.T)) };
  }

  async referenceLogprobs(sequences: readonly ScoredSequence[], temperature: number): Promise<Float32Array[]> {
    if (!this.#lora) {
      throw new BatonError({
        code: 'run/config',
        message:
          'Full fine-tuning has no KL reference (it would need a frozen copy of every weight); set beta to 0, or train a LoRA adapter, whose reference is the base model.',
      });
    }
    const { saved, out } = await this.#forward(sequences, temperature, undefined);
    saved.buffers.release();
    return completions(sequences, saved.packed, out);
  }

  async backward(dLogp: readonly ArrayLike<number>[]): Promise<void> {
    const saved = this.#saved;
    if (!saved || dLogp.length !== saved.sequences.length)
      throw new BatonError({ code: 'internal', message: 'backward needs the forward of the same sequences first.' });
    const { T, config } = saved.pass;
    const rows = new Float32Array(T);
    saved.sequences.forEach((s, b) => {
      const n = s.ids.length - s.completionStart;
      if (dLogp[b].length !== n)
        throw new BatonError({ code: 'data/invalid', message: `sequence ${b} has ${n} completion tokens but ${dLogp[b].length} dLogp values.` });
      for (let i = 0; i < n; i++) rows[saved.packed.completionRows[b] + i] = dLogp[b][i];
    });
    const scratch = new Scratch(this.#device);
    try {
      const trained = this.#trained;
      const pass: TrainingPass = { ...saved.pass, scratch, grads: { lora: (p) => trained.loraGradients(p), weight: (w) => trained.weightGradients(w) } };
      const dLogpBuffer = scratch.floats(T, 'dLogp');
      this.#device.write(dLogpBuffer, rows);
      const order = scratch.floats(T, 'tokens by id');
      this.#device.write(order, tokensById(saved.packed.ids));
      const batch = this.#device.batch('training backward');
      const L = config.numLayers;
      const dx = scratch.floats(T * config.hiddenSize, 'd x'); // (T, C)
      const grads = layerGradients(pass, scratch);
      encodeHeadBackward(batch, pass, this.#head(saved, saved.inputs[L]), grads, dLogpBuffer, dx);
      const acts = layerActivations(pass, scratch);
      for (let l = L - 1; l >= 0; l--) {
        encodeLayerForward(batch, pass, l, saved.inputs[l], acts);
        encodeLayerBackward(batch, pass, l, saved.inputs[l], acts, grads, dx);
      }
      const embed = this.#model.weights.embed;
      trained.weightGradients(embed)?.forEach((dTable, i) => {
        const chunk = embed.chunks[i];
        batch.run(embeddingBackward, {}, { ids: pass.ids, order, dOut: dx, dTable }, { T, C: config.hiddenSize, rowStart: chunk.rowStart, rows: chunk.rows });
      });
      await batch.submit();
    } finally {
      scratch.release();
    }
  }

  async applyGradients(): Promise<GradientStep> {
    this.#checkAdapter();
    const report = await this.#adamw.step();
    this.#trained.zeroGradients();
    // Full fine-tuning changed the model's weights in place: the fused sampling path copies them again.
    if (report.applied && !this.#lora) await this.#model.refreshFusedWeights();
    if (!report.applied) return { applied: false, gradNorm: Number.NaN, lr: 0, step: report.step, reason: report.reason };
    return { applied: true, gradNorm: report.gradNorm, lr: report.lr, step: report.step };
  }

  /** The accumulated gradients by parameter name ('<module>.lora_A' / '.lora_B', or weight names): for checks and `baton grpo-step`. */
  async readGradients(): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (const p of this.#trained.parameters) out.set(p.name, await this.#device.readF32(p.grad, 0, p.shape[0] * p.shape[1]));
    return out;
  }

  /**
   * What resumes this training: AdamW's state beside the adapter as trained so far (LoRA) or every
   * weight (full fine-tuning), read back from the GPU.
   */
  async exportState(): Promise<TrainingState> {
    const optimizer = await this.#adamw.exportState();
    if (!this.#lora) return { weights: await this.weightsFile(), optimizer };
    const files = writePeftAdapter(await this.adapter());
    return { adapterConfig: new TextDecoder().decode(files['adapter_config.json']), adapter: files['adapter_model.safetensors'], optimizer };
  }

  /** Continues from exportState's output: the adapter or the weights into the model's buffers, AdamW's moments and step. */
  async importState(state: TrainingState): Promise<void> {
    if ('weights' in state) return this.#importWeights(state);
    const lora = this.#loraOnGpu('importState');
    const files = filesFromMemory('training state', {
      'adapter_config.json': new TextEncoder().encode(state.adapterConfig),
      'adapter_model.safetensors': state.adapter,
    });
    const adapter = await readPeftAdapter(files, this.#model.config);
    for (const [path, m] of lora.modules) {
      const w = adapter.weights.get(path);
      if (!w || w.A.length !== m.A.rows * m.A.cols || w.B.length !== m.B.rows * m.B.cols) {
        throw new BatonError({
          code: 'data/invalid',
          message: `The training state's adapter lacks module ${path} or has other shapes; resume with the adapter this trainer was made with.`,
          data: { module: path },
        });
      }
    }
    this.#adamw.importState(state.optimizer);
    for (const [path, m] of lora.modules) {
      const w = adapter.weights.get(path)!;
      this.#device.write(m.A.chunks[0].buffer, w.A);
      this.#device.write(m.B.chunks[0].buffer, w.B);
    }
  }

  /** Every weight as trained so far (full fine-tuning): model.safetensors bytes, F32, the model's Hugging Face names and shapes. */
  async weightsFile(): Promise<Uint8Array<ArrayBuffer>> {
    this.#fullOnly('weightsFile');
    const shapes = expectedShapes(this.#model.config);
    const tensors: TensorToWrite[] = [];
    for (const w of modelTensors(this.#model.weights)) {
      const data = new Float32Array(w.rows * w.cols);
      for (const c of w.chunks) data.set(await this.#device.readF32(c.buffer, 0, c.rows * w.cols), c.rowStart * w.cols);
      tensors.push({ name: w.name, dtype: 'F32', shape: shapes.get(w.name) ?? [w.rows, w.cols], data });
    }
    return writeSafetensors(tensors);
  }

  async #importWeights(state: WeightsTrainingState): Promise<void> {
    this.#fullOnly('importState of every weight');
    const source = await openTensorSource(filesFromMemory('training state', { [SINGLE_FILE]: state.weights }));
    const values = new Map<GpuTensor, Float32Array>();
    for (const w of modelTensors(this.#model.weights)) {
      const info = source.tensors.get(w.name);
      if (!info || elementCount(info.shape) !== w.rows * w.cols) {
        throw new BatonError({
          code: 'data/invalid',
          message: `The training state's weights lack ${w.name} or hold it in another shape; resume with the model this trainer was made with.`,
          data: { tensor: w.name },
        });
      }
      values.set(w, await source.read(w.name));
    }
    this.#adamw.importState(state.optimizer);
    for (const [w, data] of values) for (const c of w.chunks) this.#device.write(c.buffer, data.subarray(c.rowStart * w.cols, (c.rowStart + c.rows) * w.cols));
    // Decoding reads joined copies of q/k/v and gate/up: they must see the imported weights too.
    await this.#model.refreshFusedWeights();
  }

  /** The trained adapter read back from the GPU buffers the model samples with. */
  async adapter(): Promise<LoraAdapter> {
    const lora = this.#loraOnGpu('exportState');
    const weights = new Map<string, LoraWeights>();
    for (const [path, m] of lora.modules) {
      const A = await this.#device.readF32(m.A.chunks[0].buffer, 0, m.A.rows * m.A.cols);
      const B = await this.#device.readF32(m.B.chunks[0].buffer, 0, m.B.rows * m.B.cols);
      weights.set(path, { A, B, inFeatures: m.A.cols, outFeatures: m.B.rows });
    }
    return { config: this.#lora!.config, weights };
  }

  /** Frees the gradients, optimiser state and saved activations; the model and its adapter stay. */
  destroy(): void {
    this.#release();
    this.#adamw.destroy();
    this.#trained.destroy();
  }

  /** A setLora on the model since this trainer was made freed the buffers it trains. */
  #checkAdapter(): void {
    if (this.#lora && this.#model.lora !== this.#gpuLora) {
      throw new BatonError({
        code: 'internal',
        message: "The model's LoRA adapter was replaced (setLora) after this trainer was made; make a new trainer for the new adapter.",
      });
    }
  }

  // The run's own code makes the trainer that fits it (LoRA or full), so these two fail only on a bug in Baton.
  #fullOnly(what: string): void {
    if (this.#lora)
      throw new BatonError({ code: 'internal', message: `${what} holds every weight of a full fine-tuning run; this trainer trains a LoRA adapter.` });
  }

  #loraOnGpu(what: string): GpuLora {
    const lora = this.#model.lora;
    if (!this.#lora || !lora)
      throw new BatonError({ code: 'internal', message: `${what} holds a LoRA adapter and its optimiser; this trainer trains every weight.` });
    return lora;
  }

  #release(): void {
    this.#saved?.buffers.release();
    this.#saved = undefined;
  }

  #head(saved: Saved, x: GPUBuffer) {
    const rowsPerChunk = headRowsPerChunk(this.#model.config.vocabSize, this.#model.maxBindingBytes);
    return { x, targets: saved.targets, invTemperature: saved.invTemperature, rowsPerChunk };
  }

  /** The forward of a packed micro-batch with `lora` (undefined: the base): logprobs then entropies per row (2, T). */
  async #forward(sequences: readonly ScoredSequence[], temperature: number, lora: GpuLora | undefined): Promise<{ saved: Saved; out: Float32Array }> {
    const config = this.#model.config;
    if (!(temperature > 0)) throw new BatonError({ code: 'run/config', message: `temperature must be positive, got ${temperature}.` });
    if (sequences.length === 0) throw new BatonError({ code: 'data/invalid', message: 'No sequences to score.' });
    const V = config.vocabSize;
    for (const s of sequences) {
      if (!(s.completionStart >= 1 && s.completionStart < s.ids.length)) {
        throw new BatonError({
          code: 'data/invalid',
          message: `completionStart ${s.completionStart} must be at least 1 and below the sequence's ${s.ids.length} tokens.`,
        });
      }
      for (const id of s.ids)
        if (!Number.isInteger(id) || id < 0 || id >= V)
          throw new BatonError({ code: 'data/invalid', message: `token id ${id} is outside the vocabulary of ${V}.`, data: { id } });
    }
    const packed = packSequences(sequences);
    const T = packed.T;
    const longest = Math.max(...sequences.map((s) => s.ids.length));
    const limits = this.#limits;
    if (limits && T > trainingRows(limits)) {
      throw new BatonError({
        code: 'run/config',
        message: `A micro-batch of ${sequences.length} sequences of up to ${longest} tokens packs into ${T} rows, beyond the ${trainingRows(limits)} rows this trainer's memory was checked for (${describeLimits(limits)}); make the trainer with larger limits.`,
      });
    }
    const D = config.headDim; // a row of the table: D/2 (cos, sin) pairs
    const table = ropeTable(this.#invFreq, 0, longest);
    const rope = new Float32Array(T * D);
    packed.positions.forEach((p, t) => rope.set(table.subarray(p * D, (p + 1) * D), t * D));

    const buffers = new Scratch(this.#device);
    const scratch = new Scratch(this.#device);
    try {
      const upload = (data: Uint32Array | Float32Array, label: string) => {
        const buffer = buffers.floats(data.length, label);
        this.#device.write(buffer, data);
        return buffer;
      };
      const base = {
        config,
        weights: this.#model.weights,
        lora,
        lanes: this.#model.matmulLanes,
        T,
        ids: upload(packed.ids, 'ids'),
        rope: upload(rope, 'rope'),
        visibility: upload(packed.visibility, 'visibility'),
        slots: upload(Uint32Array.of(0), 'slots'),
      };
      const L = config.numLayers;
      const inputs = Array.from({ length: L + 1 }, (_, l) => buffers.floats(T * config.hiddenSize, `layer ${l} input`));
      const saved: Saved = { sequences, pass: base, packed, targets: upload(packed.targets, 'targets'), inputs, invTemperature: 1 / temperature, buffers };
      const pass: TrainingPass = { ...base, scratch };
      const zeros = scratch.floats(T, 'zero dLogp');
      this.#device.write(zeros, new Float32Array(T));
      const out = scratch.floats(2 * T, 'logprobs and entropy');
      const batch = this.#device.batch('training forward');
      encodeEmbedding(batch, this.#model.weights, base.ids, inputs[0], T);
      const acts = layerActivations(pass, scratch);
      for (let l = 0; l < L; l++) encodeLayerForward(batch, pass, l, inputs[l], acts, inputs[l + 1]);
      encodeHeadForward(batch, pass, this.#head(saved, inputs[L]), zeros, out);
      await batch.submit();
      return { saved, out: await this.#device.readF32(out, 0, 2 * T) };
    } catch (e) {
      buffers.release();
      throw e;
    } finally {
      scratch.release();
    }
  }
}

/** Each sequence's completion rows of a per-row (T) array. */
function completions(sequences: readonly ScoredSequence[], packed: PackedBatch, rows: Float32Array): Float32Array[] {
  return sequences.map((s, b) => rows.slice(packed.completionRows[b], packed.completionRows[b] + s.ids.length - s.completionStart));
}
