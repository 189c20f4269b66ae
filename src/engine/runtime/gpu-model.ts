/**
 * A causal LM on the GPU: weights loaded once (f32, f16 or int4 projections), then prefill and
 * KV-cache decode, exact per-token logprobs in one pass, greedy or seeded sampling with stop tokens,
 * groups of samples of one prompt decoded as a batch (GRPO), and a LoRA adapter applied beside the
 * frozen weights (switchable, never merged). Passes run one at a time, in call order.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { CommandBatch, EngineDevice } from '../device/index.ts';
import { seededRandom } from '../../core/random.ts';
import { logprobsForward, logprobsThreads, NO_TOKEN, ropeTable, sampleTokens, type Dtype } from '../kernels/index.ts';
import { ropeInvFreq, type LoraAdapter, type ModelConfig, type TensorSource } from '../model/index.ts';
import { encodeForward } from './forward.ts';
import { encodeFusedForward } from './forward-fused.ts';
import { FusedWeights } from './fused-weights.ts';
import { KvCache } from './kv-cache.ts';
import { linearForward, matmulLanes, normedLinearForward } from './linear.ts';
import { destroyLora, uploadLora, type GpuLora } from './lora-weights.ts';
import { destroyModelWeights, loadModelWeights, type ModelWeights, type WeightFormat } from './model-weights.ts';
import { createSampler, nothingAllowed, streamSeed, type Sampled, type SamplingOptions } from './sampling.ts';
import { Scratch } from './scratch.ts';

interface LoadModelOptions {
  /**
   * Storage of the weights: 'f16' needs shader-f16; 'int4' stores the projection matrices as int4
   * groups and the rest in f16 where available, else f32. Default f16 where available, else f32.
   */
  weights?: WeightFormat;
  /** With int4 weights, quantise the LM head too (default true); a tied head is the embedding, then int4 too. */
  int4Head?: boolean;
  /** Split tensors and logits above this many bytes; defaults to the device's storage binding limit. */
  maxBindingBytes?: number;
  /** Threads per matmul output column; defaults to what suits the adapter (linear.ts matmulLanes). */
  matmulLanes?: number;
  /**
   * Run passes through forward-fused.ts (norms folded into matmuls, q/k/v and gate/up as one matmul
   * each; default true), or false for the unfused kernels training uses (to compare the two).
   */
  fused?: boolean;
  /**
   * Sample on the GPU (greedy, temperature, top-k, top-p, token masks), or false to read the logits
   * back and sample on the CPU. Default: on a GPU, not on a CPU adapter such as SwiftShader, where the
   * sampler's one workgroup per row took ~18 ms on a 151,936-token row against ~5 ms for the readback
   * and the CPU sampler.
   */
  gpuSampling?: boolean;
  onProgress?(loaded: number, total: number): void;
}

interface GenerateOptions {
  maxNewTokens: number;
  /** Generation stops after emitting one of these; defaults to the config's eos tokens. */
  stopTokens?: readonly number[];
  sampling?: SamplingOptions;
  signal?: AbortSignal;
  onToken?(token: number, logprob: number): void;
  /**
   * Called before each token: the bitmask (bit id & 31 of word id >> 5) of the ids that may come next
   * (format-constrained sampling), or undefined for any. Logprobs stay those of the unmasked model.
   */
  allowedTokens?(tokens: readonly number[]): Uint32Array | undefined;
}

interface GroupGenerateOptions extends Omit<GenerateOptions, 'onToken' | 'allowedTokens'> {
  /** Number of completions of the prompt. */
  n: number;
  /** Completion i samples with seed streamSeed(sampling.seed, i). */
  sampling?: SamplingOptions;
  /** Called after each token; true ends completion `index` there with finishReason 'stop' (e.g. a stop string). */
  stopWhen?(index: number, tokens: readonly number[]): boolean;
  /** As GenerateOptions.allowedTokens, for completion `index`; `tokens` may run ahead of those committed (by forced ones). */
  allowedTokens?(index: number, tokens: readonly number[]): Uint32Array | undefined;
  /**
   * The tokens that must follow `tokens` in completion `index` (a constraint's fixed text). They are
   * fed with the token before them in one pass (jump-forward) and sampled there under a mask of the
   * one token, so they keep their logprobs and draws, and the result is what one pass per token gives.
   */
  forced?(index: number, tokens: readonly number[]): readonly number[];
  onToken?(index: number, token: number, logprob: number): void;
}

export interface Generation {
  tokens: number[];
  /** log p(token) under the sampling temperature (1 for greedy), one per token. */
  logprobs: number[];
  finishReason: 'stop' | 'length';
}

/**
 * What a pass computes from the last layer's output (T, C), final-normed or, on the fused path,
 * before the norm (#logitsHead folds it in): a buffer of `floats` f32 values to read back.
 */
type Head = (batch: CommandBatch, scratch: Scratch, hidden: GPUBuffer, T: number) => { buffer: GPUBuffer; floats: number };

export class GpuModel {
  readonly device: EngineDevice;
  readonly config: ModelConfig;
  readonly weights: ModelWeights;
  readonly #invFreq: Float64Array;
  readonly #maxBindingBytes: number;
  readonly #lanes: number;
  readonly #fused: FusedWeights | undefined;
  readonly #gpuSampling: boolean;
  #lora: GpuLora | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    device: EngineDevice,
    config: ModelConfig,
    weights: ModelWeights,
    maxBindingBytes: number,
    lanes: number,
    fused: FusedWeights | undefined,
    gpuSampling: boolean,
  ) {
    this.device = device;
    this.#gpuSampling = gpuSampling;
    this.#fused = fused;
    this.config = config;
    this.weights = weights;
    this.#invFreq = ropeInvFreq(config);
    this.#maxBindingBytes = maxBindingBytes;
    this.#lanes = lanes;
  }

  static async load(device: EngineDevice, model: { config: ModelConfig; tensors: TensorSource }, options: LoadModelOptions = {}): Promise<GpuModel> {
    const format = options.weights ?? (device.caps.shaderF16 ? 'f16' : 'f32');
    const dtype: Dtype = format === 'int4' ? (device.caps.shaderF16 ? 'f16' : 'f32') : format;
    const maxBindingBytes = Math.min(options.maxBindingBytes ?? Infinity, device.caps.maxStorageBufferBindingSize);
    const weights = await loadModelWeights(device, model.tensors, model.config, {
      dtype,
      int4: format === 'int4',
      ...(options.int4Head === undefined ? {} : { int4Head: options.int4Head }),
      maxBindingBytes,
      onProgress: options.onProgress,
    });
    const lanes = options.matmulLanes ?? matmulLanes(device.caps);
    if (!(Number.isInteger(Math.log2(lanes)) && lanes <= 64)) {
      throw new BatonError({ code: 'internal', message: `matmulLanes must be a power of two from 1 to 64, got ${lanes}.` });
    }
    const fused = options.fused === false ? undefined : await FusedWeights.build(device, weights, maxBindingBytes);
    return new GpuModel(device, model.config, weights, maxBindingBytes, lanes, fused, options.gpuSampling ?? !device.caps.software);
  }

  /** Applies `adapter` beside the base weights from the next pass on; undefined switches LoRA off. */
  async setLora(adapter: LoraAdapter | undefined): Promise<void> {
    const next = adapter ? await uploadLora(this.device, adapter, this.config) : undefined;
    await this.#serial(async () => {
      if (this.#lora) destroyLora(this.device, this.#lora);
      this.#lora = next;
    });
  }

  /**
   * Copies the model's weights into the fused path's concatenated ones again: full fine-tuning
   * updates the weights in place, and the next generate must sample from them.
   */
  async refreshFusedWeights(): Promise<void> {
    await this.#serial(async () => this.#fused?.refresh());
  }

  get hasLora(): boolean {
    return this.#lora !== undefined;
  }

  /** The adapter's GPU buffers the next pass reads: engine/train updates them in place. */
  get lora(): GpuLora | undefined {
    return this.#lora;
  }

  /** Threads per matmul output column this model's passes use (linear.ts). */
  get matmulLanes(): number {
    return this.#lanes;
  }

  /** The largest buffer one binding of this model's passes may cover. */
  get maxBindingBytes(): number {
    return this.#maxBindingBytes;
  }

  createKvCache(capacity?: number): KvCache {
    return new KvCache(this.device, this.config, capacity);
  }

  /**
   * Logits (T, V) of `ids`, continuing `cache` when given (its keys then hold the earlier tokens);
   * `lastOnly` returns just the last row (1, V).
   */
  async forward(ids: readonly number[], options: { cache?: KvCache; lastOnly?: boolean } = {}): Promise<Float32Array> {
    const head: Head = options.lastOnly ? this.#lastRowHead : (batch, scratch, hidden, T) => this.#logitsHead(batch, scratch, hidden, 0, T);
    if (options.cache) return this.#pass(ids, options.cache, head);
    return this.#passWithoutCache(ids, head);
  }

  /**
   * logprobs[i] = log p(ids[i + 1] | ids[0..i]) under logits / temperature; length ids.length - 1.
   * `baseOnly` leaves the LoRA adapter out (GRPO's KL reference is the base model).
   */
  async logprobs(ids: readonly number[], options: { temperature?: number; baseOnly?: boolean } = {}): Promise<Float32Array> {
    if (ids.length < 2) throw new BatonError({ code: 'data/invalid', message: 'logprobs needs at least two tokens: a context and one token to score.' });
    const temperature = options.temperature ?? 1;
    if (!(temperature > 0)) throw new BatonError({ code: 'run/config', message: `temperature must be positive, got ${temperature}.` });
    const V = this.config.vocabSize;
    const R = ids.length - 1;
    const head: Head = (batch, scratch, hidden) => {
      const targets = scratch.floats(R, 'targets');
      this.device.write(targets, Uint32Array.from(ids.slice(1)));
      const out = scratch.floats(R, 'logprobs');
      const rowsPerChunk = this.#headRows();
      for (let r0 = 0; r0 < R; r0 += rowsPerChunk) {
        const rows = Math.min(rowsPerChunk, R - r0);
        const logits = this.#logitsHead(batch, scratch, hidden, r0, rows).buffer;
        const chunkTargets = r0 === 0 ? targets : scratch.floats(rows, 'targets chunk');
        const chunkOut = r0 === 0 ? out : scratch.floats(rows, 'logprobs chunk');
        if (r0 > 0) batch.copy(targets, r0 * 4, chunkTargets, 0, rows * 4);
        batch.run(
          logprobsForward,
          { threads: logprobsThreads(V) },
          { logits, targets: chunkTargets, out: chunkOut },
          { R: rows, V, invTemperature: 1 / temperature },
        );
        if (r0 > 0) batch.copy(chunkOut, 0, out, r0 * 4, rows * 4);
      }
      return { buffer: out, floats: R };
    };
    return this.#passWithoutCache(ids, head, options.baseOnly ?? false);
  }

  /** Continues `prompt` token by token through the KV cache until a stop token or maxNewTokens. */
  async generate(prompt: readonly number[], options: GenerateOptions): Promise<Generation> {
    const { onToken, allowedTokens, sampling, ...rest } = options;
    const [out] = await this.#decode(prompt, sampling, [sampling?.seed ?? 0], {
      ...rest,
      ...(onToken ? { onToken: (_: number, token: number, logprob: number) => onToken(token, logprob) } : {}),
      ...(allowedTokens ? { allowedTokens: (_: number, tokens: readonly number[]) => allowedTokens(tokens) } : {}),
    });
    return out;
  }

  /**
   * `n` completions of one prompt: the prompt is prefilled once and its keys and values copied into
   * one cache slot per completion; then every step is one forward pass over the completions still
   * running (finished ones leave the batch). Each completion has its own stop and its own random
   * stream, so completion i equals `generate` with seed streamSeed(seed, i).
   */
  async generateGroup(prompt: readonly number[], options: GroupGenerateOptions): Promise<Generation[]> {
    const { n, sampling, ...rest } = options;
    if (!Number.isInteger(n) || n < 1) throw new BatonError({ code: 'run/config', message: `n must be a positive integer, got ${n}.` });
    const seed = sampling?.seed ?? 0;
    return this.#decode(
      prompt,
      sampling,
      Array.from({ length: n }, (_, i) => streamSeed(seed, i)),
      rest,
    );
  }

  /**
   * The decoding loop of generate and generateGroup: completion i samples with seed seeds[i]. With
   * GPU sampling, every mode (greedy, temperature, top-k, top-p, token masks) reads back a token and
   * its logprob per completion; without, the logits come back and the CPU samplers pick.
   */
  async #decode(
    prompt: readonly number[],
    sampling: SamplingOptions | undefined,
    seeds: readonly number[],
    options: Omit<GroupGenerateOptions, 'n' | 'sampling'>,
  ): Promise<Generation[]> {
    const { maxNewTokens, signal } = options;
    if (!Number.isInteger(maxNewTokens) || maxNewTokens < 1) {
      throw new BatonError({ code: 'run/config', message: `maxNewTokens must be a positive integer, got ${maxNewTokens}.` });
    }
    const samplers = seeds.map((seed) => createSampler({ ...sampling, seed })); // also checks the options
    const temperature = sampling?.temperature ?? 0;
    const draws = seeds.map((seed) => seededRandom(seed)); // the streams the CPU samplers draw from
    const n = seeds.length;
    const V = this.config.vocabSize;
    const stop = new Set(options.stopTokens ?? this.config.eosTokenIds);
    const outs: Generation[] = Array.from({ length: n }, () => ({ tokens: [], logprobs: [], finishReason: 'length' }));
    let into: Float32Array | undefined; // each step's logits (CPU sampling), read by the samplers before the next step overwrites them

    /**
     * What completion i's next pass decides: the masks its T positions sample under (a forced token's
     * mask allows only it), and the forced tokens fed after its last one. A position's sample is then
     * the forced token itself, so a pass of T positions commits exactly what T one-token passes would.
     */
    const lookahead = (i: number): { masks: (Uint32Array | undefined)[]; feed: number[] } => {
      const tokens = outs[i].tokens;
      const room = maxNewTokens - tokens.length;
      const forced = options.forced?.(i, tokens).slice(0, room) ?? [];
      const ends = forced.findIndex((t) => stop.has(t));
      if (ends >= 0) forced.length = ends + 1;
      const masks: (Uint32Array | undefined)[] = forced.map(onlyToken(V));
      if (forced.length < room && ends < 0) masks.push(options.allowedTokens?.(i, [...tokens, ...forced]));
      return { masks, feed: forced.slice(0, masks.length - 1) };
    };

    /**
     * Samples of the completions in `rows` at T positions each, row-major: after the prompt (slots
     * undefined, T = 1, one row of logits for all), or after `ids` (T per row) in their cache slots.
     */
    const step = async (
      ids: readonly number[],
      stepCache: KvCache,
      slots: readonly number[] | undefined,
      rows: readonly number[],
      masks: (Uint32Array | undefined)[][],
      T: number,
    ): Promise<Sampled[]> => {
      if (signal?.aborted) throw new BatonError({ code: 'run/aborted', message: 'Generation stopped.', cause: signal.reason });
      const logitsHead: Head = slots ? (batch, scratch, hidden, rowsOut) => this.#logitsHead(batch, scratch, hidden, 0, rowsOut) : this.#lastRowHead;
      const positions = rows.flatMap((i, r) => Array.from({ length: T }, (_, k) => ({ i, r, k })));
      if (!this.#gpuSampling) {
        const floats = (slots ? positions.length : 1) * V;
        if (!into || into.length < floats) into = new Float32Array(floats);
        const logits = await this.#pass(ids, stepCache, logitsHead, { ...(slots ? { slots } : {}), into });
        return positions.map(({ i, r, k }, p) => samplers[i](logits.subarray(slots ? p * V : 0, (slots ? p : 0) * V + V), masks[r][k]));
      }
      const u = positions.map(({ i }) => (temperature > 0 ? draws[i]() : 0));
      const head: Head = (batch, scratch, hidden, rowsOut) =>
        this.#sampleHead(
          batch,
          scratch,
          logitsHead(batch, scratch, hidden, rowsOut).buffer,
          slots ? V : 0,
          u,
          positions.map(({ r, k }) => masks[r][k]),
          sampling,
        );
      const out = await this.#pass(ids, stepCache, head, slots ? { slots } : {});
      const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
      return positions.map((_, p) => {
        if (bits[2 * p] === NO_TOKEN) throw nothingAllowed();
        return { token: bits[2 * p], logprob: out[2 * p + 1] };
      });
    };

    /** Appends completion i's sample; whether it goes on. */
    const commit = (i: number, { token, logprob }: Sampled): boolean => {
      const out = outs[i];
      out.tokens.push(token);
      out.logprobs.push(logprob);
      options.onToken?.(i, token, logprob);
      if (stop.has(token) || options.stopWhen?.(i, out.tokens)) out.finishReason = 'stop';
      return out.finishReason !== 'stop' && out.tokens.length < maxNewTokens;
    };

    // Each completion feeds at most maxNewTokens - 1 tokens back. A lone completion decodes in the prompt's own cache.
    const promptCache = this.createKvCache(prompt.length + (n === 1 ? maxNewTokens - 1 : 0));
    let cache: KvCache | undefined = n === 1 ? promptCache : undefined;
    // Rows of logits one pass may return (the head's binding limit) bound how far the completions jump at once.
    const maxRows = this.#headRows();
    try {
      const all = outs.map((_, i) => i);
      const first = await step(
        prompt,
        promptCache,
        undefined,
        all,
        all.map((i) => lookahead(i).masks.slice(0, 1)),
        1,
      );
      let running = all.filter((i) => commit(i, first[i]));
      while (running.length > 0) {
        if (!cache) {
          cache = new KvCache(this.device, this.config, prompt.length + maxNewTokens - 1, n);
          await cache.fillFrom(promptCache);
          promptCache.destroy();
        }
        // Every completion still running has as many tokens: they advance T positions together.
        const plans = running.map(lookahead);
        const T = Math.max(1, Math.min(Math.floor(maxRows / running.length), ...plans.map((p) => p.masks.length)));
        const ids = running.flatMap((i, r) => [outs[i].tokens[outs[i].tokens.length - 1], ...plans[r].feed.slice(0, T - 1)]);
        const sampled = await step(
          ids,
          cache,
          running,
          running,
          plans.map((p) => p.masks),
          T,
        );
        running = running.filter((i, r) => sampled.slice(r * T, r * T + T).every((s) => commit(i, s)));
      }
    } finally {
      promptCache.destroy();
      cache?.destroy();
    }
    return outs;
  }

  /**
   * Samples one token per row of `logits` on the GPU (kernels/sample-tokens.ts) with draws `u` and
   * optional per-row masks; rowStride 0 samples every row from the first row of logits.
   */
  #sampleHead(
    batch: CommandBatch,
    scratch: Scratch,
    logits: GPUBuffer,
    rowStride: number,
    u: readonly number[],
    masks: readonly (Uint32Array | undefined)[],
    sampling: SamplingOptions | undefined,
  ) {
    const { temperature = 0, topK = 0, topP = 1 } = sampling ?? {};
    const greedy = temperature === 0;
    const V = this.config.vocabSize;
    const R = u.length;
    const draws = scratch.floats(R, 'draws');
    this.device.write(draws, Float32Array.from(u));
    const masked = masks.some((m) => m !== undefined);
    let mask = draws;
    if (masked) {
      const words = Math.ceil(V / 32);
      const bits = new Uint32Array(R * words); // ids past a shorter mask are not allowed, as on the CPU
      masks.forEach((m, r) => (m ? bits.set(m.subarray(0, words), r * words) : bits.fill(0xffffffff, r * words, (r + 1) * words)));
      mask = scratch.floats(R * words, 'token masks');
      this.device.write(mask, bits);
    }
    const out = scratch.floats(2 * R, 'sampled');
    batch.run(
      sampleTokens,
      { greedy, masked, topK: !greedy && topK > 0, topP: !greedy && topP < 1 },
      { logits, draws, mask, out },
      { R, V, rowStride, invTemperature: greedy ? 1 : 1 / temperature, topK, topP },
    );
    return { buffer: out, floats: 2 * R };
  }

  destroy(): void {
    destroyModelWeights(this.device, this.weights);
    this.#fused?.destroy();
    if (this.#lora) destroyLora(this.device, this.#lora);
    this.#lora = undefined;
  }

  /** Rows of logits that fit one storage binding. */
  #headRows(): number {
    return Math.max(1, Math.floor(this.#maxBindingBytes / (this.config.vocabSize * 4)));
  }

  readonly #lastRowHead: Head = (batch, scratch, hidden, T) => this.#logitsHead(batch, scratch, hidden, T - 1, 1);

  /** Logits of hidden rows [r0, r0 + rows) into a new scratch buffer (rows, V). */
  #logitsHead(batch: CommandBatch, scratch: Scratch, hidden: GPUBuffer, r0: number, rows: number): { buffer: GPUBuffer; floats: number } {
    const { hiddenSize: C, vocabSize: V } = this.config;
    if (rows > this.#headRows()) {
      throw new BatonError({
        code: 'engine/unsupported',
        message: `${rows} rows of ${V} logits exceed this GPU's storage binding limit; ask for fewer tokens at once (or only the last row).`,
        data: { rows, vocab: V },
      });
    }
    let x = hidden;
    if (r0 > 0) {
      x = scratch.floats(rows * C, 'head rows');
      batch.copy(hidden, r0 * C * 4, x, 0, rows * C * 4);
    }
    const logits = scratch.floats(rows * V, 'logits');
    if (this.#fused) {
      // The fused forward leaves the residual stream: the final norm is folded into the head.
      normedLinearForward(batch, {
        x,
        M: rows,
        norm: this.weights.norm,
        eps: this.config.rmsNormEps,
        weight: this.weights.lmHead,
        out: logits,
        lanes: this.#lanes,
      });
    } else {
      linearForward(batch, { x, M: rows, weight: this.weights.lmHead, out: logits, lanes: this.#lanes });
    }
    return { buffer: logits, floats: rows * V };
  }

  #serial<R>(task: () => Promise<R>): Promise<R> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** A pass over a whole sequence: attention still reads keys from a cache, made for it and freed. */
  async #passWithoutCache(ids: readonly number[], head: Head, baseOnly = false): Promise<Float32Array> {
    const cache = this.createKvCache(ids.length);
    try {
      return await this.#pass(ids, cache, head, { baseOnly });
    } finally {
      cache.destroy();
    }
  }

  /**
   * One forward pass of `ids` continuing `cache`, then `head`. With several `slots`, ids are
   * ids.length / slots.length tokens of each sequence in turn, each continuing its own cache slot.
   * `baseOnly` runs without the LoRA adapter; `into` receives the head's output instead of a new array.
   */
  #pass(
    ids: readonly number[],
    cache: KvCache,
    head: Head,
    options: { slots?: readonly number[]; baseOnly?: boolean; into?: Float32Array } = {},
  ): Promise<Float32Array> {
    const slots = options.slots ?? [0];
    const { vocabSize: V, headDim: D } = this.config;
    if (ids.length === 0) return Promise.reject(new BatonError({ code: 'data/invalid', message: 'No tokens to run: give at least one token id.' }));
    for (const id of ids) {
      if (!Number.isInteger(id) || id < 0 || id >= V) {
        return Promise.reject(new BatonError({ code: 'data/invalid', message: `token id ${id} is outside the vocabulary of ${V}.`, data: { id } }));
      }
    }
    return this.#serial(async () => {
      const T = ids.length;
      const Tq = T / slots.length;
      const startPos = cache.length;
      await cache.reserve(Tq);
      const scratch = new Scratch(this.device);
      try {
        const idBuffer = scratch.floats(T, 'ids');
        this.device.write(idBuffer, Uint32Array.from(ids));
        const rope = scratch.floats(T * D + slots.length, 'rope');
        const table = ropeTable(this.#invFreq, startPos, Tq); // every sequence is at the same positions
        const tiled = new Float32Array(T * D + slots.length);
        for (let b = 0; b < slots.length; b++) tiled.set(table, b * table.length);
        new Uint32Array(tiled.buffer, T * D * 4).set(slots);
        this.device.write(rope, tiled);
        const slotBuffer = scratch.floats(slots.length, 'slots');
        this.device.write(slotBuffer, Uint32Array.from(slots));
        const batch = this.device.batch('forward');
        const lora = options.baseOnly ? undefined : this.#lora;
        const input = { ids: idBuffer, rope, T, startPos, cache, slots, slotBuffer, lanes: this.#lanes };
        const hidden = this.#fused
          ? encodeFusedForward(batch, scratch, this.config, this.weights, this.#fused, lora, input)
          : encodeForward(batch, scratch, this.config, this.weights, lora, input);
        const result = head(batch, scratch, hidden, T);
        await batch.submit();
        cache.length = startPos + Tq;
        return await this.device.readF32(result.buffer, 0, result.floats, options.into);
      } finally {
        scratch.release();
      }
    });
  }
}

/** The mask (bit id & 31 of word id >> 5) allowing `id` alone. */
const onlyToken = (V: number) => (id: number) => {
  const mask = new Uint32Array(Math.ceil(V / 32));
  mask[id >>> 5] = 1 << (id & 31);
  return mask;
};
