/**
 * One Ask run: build the pool's workers with their keys, build the chosen Conductor, run the episode,
 * save it. Runs inside workers/conductor.worker.ts (and in-thread in tests); the providers and the AI SDK
 * behind them load on the first run.
 */
import { createConductor, type EngineModelChoice } from '../../core/conductor/index.ts';
import { type Episode, episodeStore } from '../../core/episodes/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import { runEpisode, type RunEventListener } from '../../core/orchestra/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import { loadReplay } from '../../core/providers/replay/index.ts';
import { buildWorker, engineWorkerChoice, tabConductorHost, TabLocalModels, type ModelRuntimes } from '../runtimes/index.ts';
import type { AskRequest } from './api.ts';

/** The engine models the pool's workers name; a name that is not one fails at its worker's step, not here. */
function engineWorkerChoices(pool: readonly WorkerSpec[]): EngineModelChoice[] {
  return pool.flatMap((spec) => {
    if (spec.provider !== 'engine') return [];
    try {
      return [engineWorkerChoice(spec)];
    } catch {
      return [];
    }
  });
}

/**
 * Runs one question and stores the episode; returns it (also when stopped: status 'aborted'). The episode
 * is stored as it goes too, marked interrupted until it ends, so a reload or a closed tab mid-run keeps it.
 */
export async function runAsk(
  request: AskRequest,
  run: {
    signal?: AbortSignal;
    onEvent?: RunEventListener;
    runtimes: Pick<ModelRuntimes, 'engine' | 'readyEngine' | 'readyEngineWorker' | 'readyWebllm' | 'gpu'>;
  },
): Promise<Episode> {
  if (request.pool.length === 0)
    throw new BatonError({ code: 'run/config', message: 'The worker pool is empty: add at least one worker on the Workers page.' });
  const replay = request.pool.some((w) => w.provider === 'replay') ? (await loadReplay(indexedDB))?.table : undefined;
  // Workers' models that this pool no longer names give their GPU memory back.
  await run.runtimes.engine.keepWorkers(engineWorkerChoices(request.pool));
  const local = new TabLocalModels(run.runtimes);
  const pool = await Promise.all(request.pool.map((spec) => buildWorker(spec, request.keys, replay, local)));
  const { options } = request;
  const store = await episodeStore();
  // Writes in order, so a late checkpoint never overwrites the finished episode; a checkpoint that fails
  // to store only costs the safety net, the final write reports its own errors.
  let saved: Promise<void> = Promise.resolve();
  const checkpoint = (episode: Episode) => void (saved = saved.then(() => store.put(episode)).catch(() => {}));
  const host = tabConductorHost(run.runtimes, {
    remoteWorker: (baseUrl, model) => buildWorker({ id: 'remote-conductor', provider: 'openai-compatible', model, baseUrl }, request.keys),
  });
  const settings = {
    poolIds: request.pool.map((w) => w.id),
    maxSteps: options.maxSteps,
    access: options.access,
    where: "The Conductor page's choice",
    demoGivesWay: true,
  } as const;
  const conductor = await createConductor(request.conductor, host, settings, { task: request.task, pool }, run.signal);
  const episode = await runEpisode({
    ...(request.episodeId ? { id: request.episodeId } : {}),
    task: request.task,
    ...(request.thread ? { thread: request.thread } : {}),
    pool,
    conductor,
    options: {
      maxSteps: options.maxSteps,
      access: options.access,
      recursionDepth: options.recursionDepth,
      timeoutMs: options.stepTimeoutMs,
      ...(options.budgetUsd === null ? {} : { budgetUsd: options.budgetUsd }),
      tags: ['ask'],
      ...(request.conversation ? { conversation: request.conversation } : {}),
    },
    signal: run.signal,
    onEvent: run.onEvent,
    onCheckpoint: checkpoint,
  });
  await saved;
  await store.put(episode);
  return episode;
}
