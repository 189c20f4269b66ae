/**
 * One Ask run: build the pool's workers with their keys, build the chosen Conductor, run the episode,
 * save it; a session (openAskSession) shares that work between the runs of a comparison. Runs inside workers/conductor.worker.ts (and in-thread in tests); the providers and the AI SDK
 * behind them load on the first run.
 */
import { conductorMaker, conductorUrls, unmadeConductor, type ConductorMaker, type EngineModelChoice } from '../../core/conductor/index.ts';
import { type Episode, episodeStore } from '../../core/episodes/index.ts';
import { BatonError, toBatonError } from '../../core/errors/index.ts';
import { runEpisode, type Conductor, type RunEventListener } from '../../core/orchestra/index.ts';
import { blockedByPage, explainBlockedCall, type ChatMessage, type WorkerModel, type WorkerSpec } from '../../core/providers/index.ts';
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

/** One run of a session: its Conductor, and what it adds to the session's settings. */
export interface SessionRun {
  conductor: Conductor;
  /** The episode's id, where the page chose it. */
  id?: string;
  tags: string[];
  group?: string;
  /** The conversation this run is a turn of (Ask's runs; a comparison's are a group). */
  conversation?: Episode['conversation'];
  /** The Conductor's first-round messages, where they are not the Ask prompt (an edited plan keeps its run's). */
  prompt?: ChatMessage[];
  /** Stored without a reward, graded or not: an answer that is no plan of the Conductor's (a fusion of a comparison's). */
  ungraded?: true;
  onEvent?: RunEventListener;
}

/** What the runs of one request share: the pool's workers, the chosen Conductor (made and loaded on first use), and the store. */
export interface AskSession {
  pool: WorkerModel[];
  /** A Conductor of the request's choice for one run (`sample`: sample even one that plans greedily). */
  conductor(sample?: true): Promise<Conductor>;
  /** Runs one episode and stores it; it is stored as it goes too, marked interrupted until it ends. */
  run(run: SessionRun): Promise<Episode>;
}

/** Builds the pool's workers with their keys for the runs of one request (Ask, a comparison, an edited plan, a fusion). */
export async function openAskSession(
  request: Omit<AskRequest, 'episodeId'>,
  run: { signal?: AbortSignal; runtimes: Pick<ModelRuntimes, 'engine' | 'readyEngine' | 'readyEngineWorker' | 'readyWebllm' | 'gpu'> },
): Promise<AskSession> {
  if (request.pool.length === 0)
    throw new BatonError({ code: 'run/config', message: 'The worker pool is empty: add at least one worker on the Workers page.' });
  const replay = request.pool.some((w) => w.provider === 'replay') ? (await loadReplay(indexedDB))?.table : undefined;
  // Workers' models that this pool no longer names give their GPU memory back.
  await run.runtimes.engine.keepWorkers(engineWorkerChoices(request.pool));
  const local = new TabLocalModels(run.runtimes);
  const blocked = request.blockedOrigins ?? [];
  const pool = await Promise.all(request.pool.map(async (spec) => blockedByPage(await buildWorker(spec, request.keys, replay, local), blocked)));
  const { options } = request;
  const store = await episodeStore();
  const host = tabConductorHost(run.runtimes, {
    remoteWorker: async (baseUrl, model) =>
      blockedByPage(await buildWorker({ id: 'remote-conductor', provider: 'openai-compatible', model, baseUrl }, request.keys), blocked),
  });
  const settings = {
    poolIds: request.pool.map((w) => w.id),
    maxSteps: options.maxSteps,
    access: options.access,
    where: "The Conductor page's choice",
    demoGivesWay: true,
  } as const;
  let maker: Promise<ConductorMaker> | undefined;
  return {
    pool,
    async conductor(sample) {
      maker ??= conductorMaker(request.conductor, host, settings);
      const made = await maker;
      await made.load(run.signal);
      return made.conductor({ task: request.task, pool, ...(sample ? { sample } : {}) });
    },
    async run({ conductor, id, tags, group, conversation, prompt, ungraded, onEvent }) {
      // Writes in order, so a late checkpoint never overwrites the finished episode; a checkpoint that fails
      // to store only costs the safety net, the final write reports its own errors.
      let saved: Promise<void> = Promise.resolve();
      const checkpoint = (episode: Episode) => void (saved = saved.then(() => store.put(episode)).catch(() => {}));
      const episode = await runEpisode({
        ...(id ? { id } : {}),
        task: request.task,
        ...(request.thread ? { thread: request.thread } : {}),
        pool,
        conductor,
        ...(prompt ? { prompt } : {}),
        options: {
          maxSteps: options.maxSteps,
          access: options.access,
          recursionDepth: options.recursionDepth,
          timeoutMs: options.stepTimeoutMs,
          ...(options.budgetUsd === null ? {} : { budgetUsd: options.budgetUsd }),
          tags,
          ...(group ? { group } : {}),
          ...(conversation ? { conversation } : {}),
        },
        signal: run.signal,
        onEvent,
        onCheckpoint: checkpoint,
      });
      await saved;
      const { reward: _, ...withoutReward } = episode;
      const kept = ungraded ? withoutReward : episode;
      await store.put(kept);
      return kept;
    },
  };
}

/**
 * Runs one question and stores the episode; returns it (also when stopped: status 'aborted'). The episode
 * is stored as it goes too, marked interrupted until it ends, so a reload or a closed tab mid-run keeps it.
 * A Conductor that cannot be made or loaded fails the run as its own failed call does: stored, with why.
 */
export async function runAsk(request: AskRequest, run: Parameters<typeof openAskSession>[1] & { onEvent?: RunEventListener }): Promise<Episode> {
  const session = await openAskSession(request, run);
  const conductor = await session.conductor().catch((e: unknown) => {
    // Stopped while its model loaded: the run was called off, not failed.
    if (run.signal?.aborted || toBatonError(e).code === 'run/aborted') throw e;
    return unmadeConductor(request.conductor, explainBlockedCall(toBatonError(e), conductorUrls(request.conductor), request.blockedOrigins ?? []));
  });
  return session.run({ conductor, id: request.episodeId, tags: ['ask'], conversation: request.conversation, onEvent: run.onEvent });
}
