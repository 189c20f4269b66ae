/** The evaluator worker's own: IndexedDB for evaluations and episodes, providers (and a stored replay table) for the pool. */
import { episodeStore } from '../../core/episodes/index.ts';
import type { ReplayTable } from '../../core/providers/index.ts';
import { loadReplay } from '../../core/providers/replay/index.ts';
import { buildWorker } from '../runtimes/index.ts';
import { EvaluationDb } from './evaluation-db.ts';
import type { EvaluatorDeps } from './evaluator-service.ts';

export function browserEvaluatorDeps(): EvaluatorDeps {
  let db: Promise<EvaluationDb> | undefined;
  let replay: Promise<ReplayTable | undefined> | undefined;
  return {
    db: () =>
      (db ??= EvaluationDb.open().catch((e: unknown) => {
        db = undefined;
        throw e;
      })),
    episodes: episodeStore,
    worker: async (spec, keys) => {
      if (spec.provider === 'replay') replay ??= loadReplay(indexedDB).then((r) => r?.table);
      return buildWorker(spec, keys, spec.provider === 'replay' ? await replay : undefined);
    },
  };
}
