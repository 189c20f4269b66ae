/**
 * The evaluator worker's own: IndexedDB for evaluations and episodes, providers for the pool, and for its replay
 * workers the records Baton ships (a recorded pool's) or else the table imported on the Workers page.
 */
import { episodeStore } from '../../core/episodes/index.ts';
import type { ReplayTable } from '../../core/providers/index.ts';
import { loadReplay } from '../../core/providers/replay/index.ts';
import { recordedReplay } from '../recorded/index.ts';
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
      if (spec.provider !== 'replay') return buildWorker(spec, keys);
      const recorded = await recordedReplay([spec.model]);
      return buildWorker(spec, keys, recorded ?? (await (replay ??= loadReplay(indexedDB).then((r) => r?.table))));
    },
  };
}
