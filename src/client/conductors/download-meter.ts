/**
 * Turns per-file byte counts into one progress line: bytes so far, bytes in all where known, speed
 * over the load so far, and time left at that speed.
 */
export interface LoadProgress {
  phase: 'download' | 'gpu';
  /** The file being read, during downloads. */
  file?: string;
  loaded: number;
  /** Known once every file's size is. */
  total?: number;
  bytesPerSecond: number;
  secondsLeft?: number;
}

export class DownloadMeter {
  readonly #files = new Map<string, { loaded: number; total?: number }>();
  readonly #start: number;
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#start = now();
  }

  update(file: string, loaded: number, total?: number): LoadProgress {
    this.#files.set(file, { loaded, total });
    const all = [...this.#files.values()];
    const done = all.reduce((sum, f) => sum + f.loaded, 0);
    const total_ = all.every((f) => f.total !== undefined) ? all.reduce((sum, f) => sum + (f.total ?? 0), 0) : undefined;
    const seconds = Math.max(1e-3, (this.#now() - this.#start) / 1000);
    const bytesPerSecond = done / seconds;
    return {
      phase: 'download',
      file,
      loaded: done,
      ...(total_ === undefined ? {} : { total: total_ }),
      bytesPerSecond,
      ...(total_ !== undefined && bytesPerSecond > 0 ? { secondsLeft: Math.max(0, total_ - done) / bytesPerSecond } : {}),
    };
  }
}
