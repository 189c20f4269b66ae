/**
 * What the page and the Ask service exchange (through src/client): the service's type, a run's request as plain
 * data, and which key slots the page unlocks for it. The Conductor's model runtimes have their own in
 * services/runtimes/api.ts.
 */
import { keySlot } from '../../core/keys/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import type { Task } from '../../core/task.ts';
import type { AccessMode, ThreadTurn } from '../../core/workflow/index.ts';
import type { Episode } from '../../core/episodes/index.ts';
import type { ConductorChoice } from '../../core/conductor/index.ts';

export type { AskService } from './ask-service.ts';

export interface AskOptions {
  maxSteps: number;
  access: AccessMode;
  recursionDepth: number;
  budgetUsd: number | null;
  stepTimeoutMs: number;
}

/** One Ask run, as plain data that crosses to the worker (structured clone). */
export interface AskRequest {
  task: Task;
  pool: WorkerSpec[];
  conductor: ConductorChoice;
  options: AskOptions;
  /** A follow-up's conversation: its earlier turns (bounded by the run, core/workflow's boundThread) and the link the episode keeps. */
  thread?: ThreadTurn[];
  conversation?: Episode['conversation'];
  /** The episode's id, chosen by the page so it can tell the run's stored checkpoints apart. */
  episodeId?: string;
  /** Keys by slot (core/keys), already unlocked in the page; only the slots this run needs. */
  keys: Record<string, string>;
}

/** The key slots a request's workers and Conductor may use: the page unlocks just these. */
export function slotsNeeded(request: Pick<AskRequest, 'pool' | 'conductor'>): string[] {
  const c = request.conductor;
  const remote = c.kind === 'remote-endpoint' ? keySlot({ provider: 'openai-compatible', baseUrl: c.baseUrl }) : undefined;
  return [...new Set([...request.pool.flatMap((w) => keySlot(w) ?? []), ...(remote ? [remote] : [])])];
}
