/** A Conductor model load's progress in words and as a percentage, for every progress bar in the app. */
import type { LoadProgress } from '../../../client/index.ts';
import { formatBytes } from '../../format.ts';

function duration(seconds: number): string {
  return seconds < 90 ? `${Math.ceil(seconds)} s` : `${Math.ceil(seconds / 60)} min`;
}

const PHASE: Record<LoadProgress['phase'], string> = {
  download: 'Downloading',
  gpu: 'Copying the weights to the GPU',
  shaders: 'Compiling GPU shaders',
};

export function describeLoadProgress(p: LoadProgress | undefined): { text: string; percent?: number } {
  if (!p) return { text: 'Starting…' };
  const amount =
    p.unit === 'bytes'
      ? `${formatBytes(p.loaded)}${p.total === undefined ? '' : ` of ${formatBytes(p.total)}`}`
      : `${p.loaded}${p.total === undefined ? '' : ` of ${p.total}`}${p.phase === 'gpu' ? ' tensors' : ''}`;
  const parts = [
    `${PHASE[p.phase]}${p.file ? ` ${p.file}` : ''}: ${amount}`,
    ...(p.bytesPerSecond !== undefined && p.bytesPerSecond > 0 ? [`${formatBytes(p.bytesPerSecond)}/s`] : []),
    ...(p.secondsLeft === undefined ? [] : [`about ${duration(p.secondsLeft)} left`]),
  ];
  return { text: parts.join(', '), ...(p.total ? { percent: Math.min(100, Math.round((100 * p.loaded) / p.total)) } : {}) };
}
