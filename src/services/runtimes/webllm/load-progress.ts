/**
 * web-llm's load progress in Baton's shape. web-llm reports `{ progress, timeElapsed, text }` where
 * `progress` restarts at 0 in each phase (download, copy to the GPU, shader compilation) and the
 * byte counts exist only inside `text`, e.g.
 *   "Fetching param cache[3/108]: 512MB fetched. 12% completed, 30 secs elapsed. It can take a while..."
 *   "Loading model from cache[5/108]: 830MB loaded. 20% completed, 4 secs elapsed."
 *   "Loading GPU shader modules[40/80]: 50% completed, 7 secs elapsed."
 *   "Finish loading on WebGPU - nvidia"
 * Speed and time left are measured from successive reports of the same phase on Baton's own clock
 * (web-llm's `timeElapsed` is whole seconds).
 */
import type { InitProgressReport } from '@mlc-ai/web-llm';

export type WebllmLoadPhase = 'download' | 'gpu' | 'shaders' | 'ready' | 'other';

export interface WebllmLoadProgress {
  phase: WebllmLoadPhase;
  /** 0..1 within the phase. */
  fraction: number;
  bytesLoaded?: number;
  /** Estimated from bytes so far and the fraction (web-llm prints whole megabytes). */
  bytesTotal?: number;
  bytesPerSecond?: number;
  secondsLeft?: number;
  /** Shards or shader modules done, and in all, where web-llm says ("[3/108]"). */
  step?: { done: number; total: number };
  /** One line for the Conductor page. */
  text: string;
}

export interface ParsedWebllmProgress {
  phase: WebllmLoadPhase;
  /** "[3/108]": shards or shader modules done, and in all. */
  step?: { done: number; total: number };
  /** The "512MB fetched" / "830MB loaded" figure, in bytes (web-llm rounds it up to whole MiB). */
  bytes?: number;
  /** After "Finish loading on". */
  gpu?: string;
}

const MiB = 2 ** 20;

const PATTERNS: { phase: WebllmLoadPhase; re: RegExp }[] = [
  { phase: 'download', re: /^Fetching param cache\[(\d+)\/(\d+)\]:\s*(\d+)\s*MB fetched/ },
  { phase: 'gpu', re: /^Loading model from cache\[(\d+)\/(\d+)\]:\s*(\d+)\s*MB loaded/ },
  { phase: 'shaders', re: /^Loading GPU shader modules\[(\d+)\/(\d+)\]/ },
];

export function parseWebllmProgressText(text: string): ParsedWebllmProgress {
  if (/^Start to fetch params/.test(text)) return { phase: 'download', bytes: 0 };
  const finished = /^Finish loading on (.+)$/.exec(text.trim());
  if (finished) return { phase: 'ready', gpu: finished[1] };
  for (const { phase, re } of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    return {
      phase,
      step: { done: Number(m[1]), total: Number(m[2]) },
      ...(m[3] === undefined ? {} : { bytes: Number(m[3]) * MiB }),
    };
  }
  return { phase: 'other' };
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / MiB).toLocaleString('en-US')} MB`;
}

function duration(seconds: number): string {
  return seconds < 90 ? `${Math.ceil(seconds)} s` : `${Math.ceil(seconds / 60)} min`;
}

function describe(p: Omit<WebllmLoadProgress, 'text'>, parsed: ParsedWebllmProgress, raw: string): string {
  const tail = [
    p.bytesPerSecond === undefined ? '' : `${(p.bytesPerSecond / MiB).toFixed(1)} MB/s`,
    p.secondsLeft === undefined ? '' : `about ${duration(p.secondsLeft)} left`,
  ].filter(Boolean);
  const percent = `${Math.floor(p.fraction * 100)}%`;
  const amount =
    p.bytesLoaded === undefined ? percent : `${megabytes(p.bytesLoaded)}${p.bytesTotal === undefined ? '' : ` of about ${megabytes(p.bytesTotal)}`}`;
  switch (p.phase) {
    case 'download':
      return [`Downloading the model: ${amount}`, ...tail].join(', ');
    case 'gpu':
      return [`Copying the model to the GPU: ${amount}`, ...tail].join(', ');
    case 'shaders':
      return [`Compiling GPU shaders: ${parsed.step ? `${parsed.step.done} of ${parsed.step.total}` : percent}`, ...tail].join(', ');
    case 'ready':
      return `Ready on ${parsed.gpu}`;
    case 'other':
      return raw;
  }
}

/**
 * A stateful mapper: feed it every report of one load, in order. `now` is in milliseconds
 * (performance.now by default; tests pass their own clock).
 */
export function createWebllmProgressMapper(now: () => number = () => performance.now()): (report: InitProgressReport) => WebllmLoadProgress {
  let phaseStart: { phase: WebllmLoadPhase; at: number; fraction: number; bytes?: number } | undefined;
  return (report) => {
    const parsed = parseWebllmProgressText(report.text);
    const at = now();
    const fraction = Math.min(1, Math.max(0, report.progress));
    if (phaseStart?.phase !== parsed.phase) phaseStart = { phase: parsed.phase, at, fraction, bytes: parsed.bytes };
    const seconds = (at - phaseStart.at) / 1000;
    const progress: Omit<WebllmLoadProgress, 'text'> = { phase: parsed.phase, fraction, ...(parsed.step ? { step: parsed.step } : {}) };
    if (parsed.bytes !== undefined) {
      progress.bytesLoaded = parsed.bytes;
      if (fraction > 0) progress.bytesTotal = Math.round(parsed.bytes / fraction / MiB) * MiB;
      if (seconds > 0 && phaseStart.bytes !== undefined) progress.bytesPerSecond = (parsed.bytes - phaseStart.bytes) / seconds;
    }
    if (parsed.phase !== 'ready' && parsed.phase !== 'other' && seconds > 0 && fraction > phaseStart.fraction) {
      progress.secondsLeft = ((1 - fraction) * seconds) / (fraction - phaseStart.fraction);
    }
    return { ...progress, text: describe(progress, parsed, report.text) };
  };
}
