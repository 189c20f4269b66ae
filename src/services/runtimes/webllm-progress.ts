/**
 * web-llm's load reports in the shape every Conductor runtime reports in (download-meter.ts's
 * LoadProgress), so one progress bar shows both runtimes. Its "ready" and unrecognised reports carry
 * nothing to draw and map to undefined.
 */
import type { WebllmLoadProgress } from './webllm/index.ts';
import type { LoadProgress } from './download-meter.ts';

export function webllmLoadProgress(p: WebllmLoadProgress): LoadProgress | undefined {
  const timing = {
    ...(p.bytesPerSecond === undefined ? {} : { bytesPerSecond: p.bytesPerSecond }),
    ...(p.secondsLeft === undefined ? {} : { secondsLeft: p.secondsLeft }),
  };
  switch (p.phase) {
    case 'download':
    case 'gpu':
      return { phase: p.phase, unit: 'bytes', loaded: p.bytesLoaded ?? 0, ...(p.bytesTotal === undefined ? {} : { total: p.bytesTotal }), ...timing };
    case 'shaders':
      return p.step ? { phase: 'shaders', unit: 'items', loaded: p.step.done, total: p.step.total, ...timing } : undefined;
    case 'ready':
    case 'other':
      return undefined;
  }
}
