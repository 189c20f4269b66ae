/**
 * Baton's engine inside a web worker (Ask's, the trainer's, the evaluator's): one WebGPU device, the
 * Conductor's model (and adapter) loaded on it, loads reported as progress and stopped by an AbortSignal
 * (down to fetch), the model download cache listed and freed. The Ask run asks it for the model a choice
 * names and gets the loaded one, or a fresh load. The previous model stays loaded until the new one's
 * files are in. Pool workers on the engine ask with readyWorker: the Conductor's own model when it is the
 * one they name, else a model of their own, kept beside it while the pool names it (keepWorkers).
 */
import { BatonError } from '../../core/errors/index.ts';
import { readTrainedFormat, type TrainedFormat } from '../../core/rl/index.ts';
import type { EngineDevice, GpuModel } from '../../engine/index.ts';
import { openModel, readPeftAdapter } from '../../engine/model/index.ts';
import type { Tokenizer } from '../../engine/tokenizer/index.ts';
import { describeSource, type EngineModelChoice } from '../../core/conductor/index.ts';
import { DownloadMeter, type LoadProgress } from './download-meter.ts';
import { adapterFiles, engineFiles, isMissingRecord, MODEL_CACHE } from './engine-files.ts';

export type EngineSupport = { ok: true; software: boolean; f16: boolean; adapter: string } | { ok: false; reason: 'no-api' | 'no-adapter'; message: string };

export interface EngineLoadRequest {
  model: EngineModelChoice;
  /** The files of a picked model; kept for later runs in this tab. */
  files?: File[];
  /** The files of a picked adapter. */
  adapterFiles?: File[];
}

export interface LoadedEngineInfo {
  /** The choice this model was loaded for, as JSON: a run whose choice matches reuses it. */
  key: string;
  model: string;
  adapter?: string;
  weights: 'f32' | 'f16' | 'int4';
  vocabSize: number;
  layers: number;
  hiddenSize: number;
  /** How the Conductor was trained to run (conductor.json): its adapter's, else its model's; none for a model without one. */
  format?: TrainedFormat;
}

export interface LoadedEngine {
  model: GpuModel;
  tokenizer: Tokenizer;
  info: LoadedEngineInfo;
  /** The model's own conductor.json, which applies again once an adapter without one replaces it. */
  modelFormat?: TrainedFormat;
}

export interface CachedModelFiles {
  /** The base URL the files came from. */
  base: string;
  files: number;
  bytes: number;
}

/** What a loaded model is, for reuse: how a run samples from it (reasoning or not) needs no new load. */
const keyOf = ({ source, weights, adapter }: EngineModelChoice) => JSON.stringify({ source, weights, adapter });
/** The weights alone: a choice that differs from the loaded one only in its adapter swaps the adapter. */
const baseKeyOf = ({ source, weights }: EngineModelChoice) => JSON.stringify({ source, weights });

/** Files the user picked, for a model and its adapter. */
interface PickedFiles {
  files?: File[];
  adapterFiles?: File[];
}

function gpuOf(): GPU | undefined {
  return (globalThis.navigator as Navigator & { gpu?: GPU }).gpu;
}

export class EngineHost {
  #device: Promise<EngineDevice> | undefined;
  #loaded: LoadedEngine | undefined;
  /** baseKeyOf the loaded model's choice. */
  #loadedBase: string | undefined;
  #loading: Promise<LoadedEngine> | undefined;
  /** The picked files of the last model loaded from them: a run in this tab loads that choice again from these. */
  #picked: PickedFiles = {};
  /** Pool workers' models other than the Conductor's, by keyOf their choice. */
  #workerModels = new Map<string, Promise<LoadedEngine>>();

  /** Whether this browser can run the engine here: WebGPU present, an adapter found, and what kind. */
  async support(): Promise<EngineSupport> {
    const gpu = gpuOf();
    if (!gpu) {
      return { ok: false, reason: 'no-api', message: 'This browser offers no WebGPU here, so the engine cannot run in this tab.' };
    }
    const adapter = await gpu.requestAdapter().catch(() => null);
    if (!adapter) {
      return { ok: false, reason: 'no-adapter', message: 'This browser has WebGPU but found no usable graphics adapter (blocked, or drivers too old).' };
    }
    const info = adapter.info;
    return {
      ok: true,
      adapter: `${info.vendor || 'unknown'} ${info.architecture || ''}`.trim(),
      f16: adapter.features.has('shader-f16'),
      software: /swiftshader|llvmpipe|lavapipe/i.test(`${info.vendor} ${info.architecture} ${info.description}`) || info.isFallbackAdapter === true,
    };
  }

  /** What is loaded now, if anything. */
  current(): LoadedEngineInfo | undefined {
    return this.#loaded?.info;
  }

  /** Loads the model (replacing any other), reporting download and GPU upload progress. */
  async load(request: EngineLoadRequest, onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<LoadedEngineInfo> {
    // Files just picked are loaded even when the choice names the model loaded now: the pick may differ.
    const picked =
      request.files || request.adapterFiles
        ? { ...(request.files ? { files: request.files } : {}), ...(request.adapterFiles ? { adapterFiles: request.adapterFiles } : {}) }
        : undefined;
    return (await this.ready(request.model, onProgress, signal, picked)).info;
  }

  /** Whether `choice` is the model loaded now. */
  isLoaded(choice: EngineModelChoice): boolean {
    return this.#loaded?.info.key === keyOf(choice);
  }

  /**
   * The loaded model when it is the one `choice` names; otherwise loads it, from the files just
   * `picked` where given (always a load) or those picked for the last model loaded. A choice that
   * differs only in its adapter keeps the weights and swaps the adapter (none switches LoRA off).
   * `signal` stops the load ('run/aborted'): downloads are cut, and the model loaded before stays
   * loaded unless its replacement had already started to reach the GPU.
   */
  async ready(choice: EngineModelChoice, onProgress?: (p: LoadProgress) => void, signal?: AbortSignal, picked?: PickedFiles): Promise<LoadedEngine> {
    const key = keyOf(choice);
    if (this.#loaded?.info.key === key && !picked) return this.#loaded;
    const previous = this.#loading?.catch(() => undefined);
    const loading = (async () => {
      await previous;
      if (this.#loaded?.info.key === key && !picked) return this.#loaded;
      const files = { ...this.#picked, ...picked };
      const adopted = picked ? undefined : this.#workerModels.get(key);
      if (adopted) {
        // A pool worker's model becomes the Conductor's: one load serves both.
        this.#workerModels.delete(key);
        const model = await adopted;
        this.unload();
        this.#loaded = model;
        this.#loadedBase = baseKeyOf(choice);
        return model;
      }
      const newWeights = this.#loadedBase !== baseKeyOf(choice) || (choice.source.from === 'picked' && picked?.files);
      const kept = newWeights ? undefined : this.#loaded;
      const progress = onProgress ?? (() => {});
      this.#loaded = await cancellable(signal, () =>
        kept ? this.#swapAdapter(kept, choice, files, progress, signal) : this.#loadUnchecked(choice, files, progress, signal, () => this.unload()),
      );
      this.#loadedBase = baseKeyOf(choice);
      // Only a pick that loaded replaces the files the stored choice is run from: a wrong pick leaves them.
      this.#picked = files;
      return this.#loaded;
    })();
    this.#loading = loading;
    return loading;
  }

  /**
   * The model a pool worker names: the Conductor's when it is that one (a Conductor load in progress is
   * awaited first), else the worker's own, loaded beside the Conductor's on first use and kept.
   */
  async readyWorker(choice: EngineModelChoice, onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<LoadedEngine> {
    await this.#loading?.catch(() => undefined);
    const key = keyOf(choice);
    if (this.#loaded?.info.key === key) return this.#loaded;
    let loading = this.#workerModels.get(key);
    if (!loading) {
      const load = cancellable(signal, () => this.#loadUnchecked(choice, this.#picked, onProgress ?? (() => {}), signal, () => {}));
      loading = load;
      this.#workerModels.set(key, load);
      load.catch(() => {
        if (this.#workerModels.get(key) === load) this.#workerModels.delete(key);
      });
    }
    return loading;
  }

  /** Whether `choice` is loaded, for the Conductor or for a pool worker. */
  isReady(choice: EngineModelChoice): boolean {
    return this.isLoaded(choice) || this.#workerModels.has(keyOf(choice));
  }

  /** Frees the pool workers' models that none of `choices` names (the Conductor's stays). */
  async keepWorkers(choices: readonly EngineModelChoice[]): Promise<void> {
    const keep = new Set(choices.map(keyOf));
    for (const [key, loading] of this.#workerModels) {
      if (keep.has(key)) continue;
      this.#workerModels.delete(key);
      (await loading.catch(() => undefined))?.model.destroy();
    }
  }

  /** Frees the model's GPU memory (the device stays for the next load). */
  unload(): void {
    this.#loaded?.model.destroy();
    this.#loaded = undefined;
  }

  /** The downloaded model files kept in Cache Storage, by the base URL they came from. */
  async cached(): Promise<CachedModelFiles[]> {
    if (!(await caches.has(MODEL_CACHE))) return [];
    const cache = await caches.open(MODEL_CACHE);
    const byBase = new Map<string, CachedModelFiles>();
    for (const request of await cache.keys()) {
      if (isMissingRecord(request.url)) continue;
      const base = request.url.slice(0, request.url.lastIndexOf('/') + 1);
      const bytes = (await (await cache.match(request))?.blob())?.size ?? 0;
      const entry = byBase.get(base) ?? { base, files: 0, bytes: 0 };
      entry.files += 1;
      entry.bytes += bytes;
      byBase.set(base, entry);
    }
    return [...byBase.values()];
  }

  /** Deletes every cached model file; a loaded model keeps running. */
  async clearCache(): Promise<void> {
    await caches.delete(MODEL_CACHE);
  }

  #deviceOnce(): Promise<EngineDevice> {
    this.#device ??= (async () => {
      const { createEngineDevice } = await import('../../engine/index.ts');
      const adapter = await gpuOf()
        ?.requestAdapter()
        .catch(() => null);
      if (!adapter) {
        throw new BatonError({
          code: 'engine/no-adapter',
          message: 'WebGPU is not available in this tab, so the engine cannot run; choose random routing, a pool worker or a remote endpoint as Conductor.',
        });
      }
      return createEngineDevice(adapter);
    })();
    this.#device.catch(() => (this.#device = undefined));
    return this.#device;
  }

  /** The loaded model with `choice`'s adapter in place of its own; a wrong adapter leaves the old one on. */
  async #swapAdapter(
    loaded: LoadedEngine,
    choice: EngineModelChoice,
    picked: PickedFiles,
    onProgress: (p: LoadProgress) => void,
    signal?: AbortSignal,
  ): Promise<LoadedEngine> {
    const files = choice.adapter ? adapterFiles(choice.adapter, picked.adapterFiles, downloadReport(onProgress), signal) : undefined;
    const adapter = files ? await readPeftAdapter(files, loaded.model.config) : undefined;
    const format = (await readTrainedFormat([files])) ?? loaded.modelFormat;
    checkpointOf(signal)();
    await loaded.model.setLora(adapter);
    const { adapter: _old, format: _oldFormat, ...info } = loaded.info;
    return {
      ...loaded,
      info: { ...info, key: keyOf(choice), ...(choice.adapter ? { adapter: describeSource(choice.adapter) } : {}), ...(format ? { format } : {}) },
    };
  }

  /** `beforeUpload` runs once the files are in, before the weights go to the GPU (the Conductor's old model is freed there). */
  async #loadUnchecked(
    choice: EngineModelChoice,
    picked: PickedFiles,
    onProgress: (p: LoadProgress) => void,
    signal: AbortSignal | undefined,
    beforeUpload: () => void,
  ): Promise<LoadedEngine> {
    const checkpoint = checkpointOf(signal);
    checkpoint();
    const [{ GpuModel }, { loadTokenizer }] = await Promise.all([import('../../engine/index.ts'), import('../../engine/tokenizer/index.ts')]);
    const device = await this.#deviceOnce();
    checkpoint();
    const report = downloadReport(onProgress);
    const files = engineFiles(choice.source, picked.files, report, signal);
    // Opening reads every weight file's header, which brings each file whole into the cache.
    const [opened, tokenizer] = await Promise.all([openModel(files), loadTokenizer(files)]);
    const adapterSource = choice.adapter ? adapterFiles(choice.adapter, picked.adapterFiles, report, signal) : undefined;
    const adapter = adapterSource ? await readPeftAdapter(adapterSource, opened.config) : undefined;
    const modelFormat = await readTrainedFormat([files]);
    const format = (await readTrainedFormat([adapterSource])) ?? modelFormat;
    checkpoint();
    // Only now does the previous model give up its GPU memory: a cancelled download leaves it loaded.
    beforeUpload();
    const weights = choice.weights === 'auto' ? (device.caps.shaderF16 ? 'f16' : 'f32') : choice.weights;
    const started = performance.now();
    const model = await GpuModel.load(device, opened, {
      weights,
      onProgress: (loaded, total) => {
        // Thrown here, the engine frees the tensors already uploaded.
        checkpoint();
        const seconds = Math.max(1e-3, (performance.now() - started) / 1000);
        const perTensor = seconds / loaded;
        onProgress({ phase: 'gpu', unit: 'items', loaded, total, secondsLeft: (total - loaded) * perTensor });
      },
    });
    try {
      if (adapter) await model.setLora(adapter);
      checkpoint();
    } catch (e) {
      model.destroy();
      throw e;
    }
    const { config } = opened;
    return {
      model,
      tokenizer,
      ...(modelFormat ? { modelFormat } : {}),
      info: {
        key: keyOf(choice),
        model: describeSource(choice.source),
        ...(choice.adapter ? { adapter: describeSource(choice.adapter) } : {}),
        weights,
        vocabSize: config.vocabSize,
        layers: config.numLayers,
        hiddenSize: config.hiddenSize,
        ...(format ? { format } : {}),
      },
    };
  }
}

function loadCancelled(cause?: unknown): BatonError {
  return new BatonError({ code: 'run/aborted', message: 'The model load was cancelled.', ...(cause === undefined ? {} : { cause }) });
}

/** Throws 'run/aborted' once `signal` has fired. */
function checkpointOf(signal: AbortSignal | undefined): () => void {
  return () => {
    if (signal?.aborted) throw loadCancelled();
  };
}

/** `work`, whose failure after `signal` fired is reported as the cancel it is. */
async function cancellable<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (signal?.aborted) throw loadCancelled(e);
    throw e;
  }
}

/** Download reports from every file of a load, as one progress line. */
function downloadReport(onProgress: (p: LoadProgress) => void): (p: { file: string; loaded: number; total?: number }) => void {
  const meter = new DownloadMeter();
  return (p) => onProgress(meter.update(p.file, p.loaded, p.total));
}
