/** A Conductor method's model load in progress, in words, for the evaluation's phase line. Test: test/unit/services/evaluator/load-phase.test.ts. */
import type { ConductorLoadStatus, LoadProgress } from '../runtimes/index.ts';

const MB = 2 ** 20;
const DOING: Record<LoadProgress['phase'], string> = { download: 'downloading', gpu: 'copying to the GPU', shaders: 'compiling GPU shaders' };

/** How far a load is: megabytes, or the engine's tensors and web-llm's shader modules. */
function amount(p: LoadProgress): string {
  const n = (x: number) => (p.unit === 'bytes' ? (x / MB).toFixed(1) : String(x));
  return `${n(p.loaded)}${p.total === undefined ? '' : ` of ${n(p.total)}`} ${p.unit === 'bytes' ? 'MB' : p.phase === 'shaders' ? 'shaders' : 'tensors'}`;
}

export const loadPhase = (status: ConductorLoadStatus): string =>
  `Loading ${status.model}${status.progress ? `: ${DOING[status.progress.phase]}, ${amount(status.progress)}` : ''}`;
