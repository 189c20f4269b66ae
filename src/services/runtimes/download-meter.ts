/**
 * Turns per-file byte counts into one progress line: bytes so far, bytes in all where known, speed
 * over the last few seconds (small files arrive in a burst, and a speed over the whole load would
 * promise too early an end), and time left at that speed. LoadProgress is also the shape every Conductor
 * runtime reports its loads in (web-llm's reports are mapped to it), so one progress bar shows both.
 */
export interface LoadProgress {
  /** Downloading files, copying weights to the GPU, compiling GPU shaders (web-llm). */
  phase: 'download' | 'gpu' | 'shaders';
  /** The file being read, during downloads. */
  file?: string;
  /** What `loaded` and `total` count: bytes, or items (the engine's tensors, web-llm's shader modules). */
  unit: 'bytes' | 'items';
  loaded: number;
  /** Known once every file's size is. */
  total?: number;
  /** For byte counts. */
  bytesPerSecond?: number;
  secondsLeft?: number;
}

/** The speed is measured over this many milliseconds, or since the start when that is sooner. */
const SPEED_WINDOW_MS = 3000;

export class DownloadMeter {
  readonly #files = new Map<string, { loaded: number; total?: number }>();
  readonly #now: () => number;
  /** (time, bytes so far), oldest first: the start, then each update within the window. */
  #samples: { at: number; done: number }[];

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#samples = [{ at: now(), done: 0 }];
  }

  update(file: string, loaded: number, total?: number): LoadProgress {
    this.#files.set(file, { loaded, total });
    const all = [...this.#files.values()];
    const done = all.reduce((sum, f) => sum + f.loaded, 0);
    const total_ = all.every((f) => f.total !== undefined) ? all.reduce((sum, f) => sum + (f.total ?? 0), 0) : undefined;
    const at = this.#now();
    // Keep the newest sample older than the window, so the window is always spanned.
    while (this.#samples.length > 1 && this.#samples[1].at <= at - SPEED_WINDOW_MS) this.#samples.shift();
    const from = this.#samples[0];
    this.#samples.push({ at, done });
    const bytesPerSecond = (done - from.done) / Math.max(1e-3, (at - from.at) / 1000);
    return {
      phase: 'download',
      file,
      unit: 'bytes',
      loaded: done,
      ...(total_ === undefined ? {} : { total: total_ }),
      bytesPerSecond,
      ...(total_ !== undefined && bytesPerSecond > 0 ? { secondsLeft: Math.max(0, total_ - done) / bytesPerSecond } : {}),
    };
  }
}

/** Progress crosses to the page at most this often. */
const PROGRESS_EVERY_MS = 100;

/** Passes at most one progress report per PROGRESS_EVERY_MS, and always the one that completes. */
export function throttledProgress(onProgress: (p: LoadProgress) => void): (p: LoadProgress) => void {
  let last = -Infinity;
  return (p) => {
    const now = performance.now();
    if (now - last < PROGRESS_EVERY_MS && p.loaded !== p.total) return;
    last = now;
    onProgress(p);
  };
}
