/**
 * What the page and the Ask service exchange (through src/client): the service's type, a run's request as plain
 * data, and which key slots the page unlocks for it. The Conductor's model runtimes have their own in
 * services/runtimes/api.ts.
 */
import { keySlot } from '../../core/keys/index.ts';
import type { ChatMessage, WorkerSpec } from '../../core/providers/index.ts';
import type { Task } from '../../core/task.ts';
import type { AccessMode, ThreadTurn, Workflow } from '../../core/workflow/index.ts';
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
  /** Origins the run's workers or Conductor reach that the page's policy blocks until a reload: a refused call to one says so (core/providers' blockedByPage). */
  blockedOrigins?: string[];
}

/** A comparison (its runs share `group`; the page names each run's episode up front, one per column) and what it adds to. */
export interface CompareRequest extends Omit<AskRequest, 'episodeId'> {
  group: string;
  /** One per run: 2 to 6. */
  episodeIds: string[];
}

/** One of a comparison's plans edited by hand and run again, as a new episode of the group. */
export interface EditedRunRequest extends Omit<AskRequest, 'episodeId'> {
  group: string;
  episodeId: string;
  workflow: Workflow;
  /** The Conductor's prompt of the run it was edited from, so the group shares one prompt (GRPO's group). */
  prompt: ChatMessage[];
}

/** A worker asked to fuse a comparison's answers into one, as an episode of the group (not a candidate for a pick). */
export interface FuseRequest extends Omit<AskRequest, 'episodeId'> {
  group: string;
  episodeId: string;
  /** The worker that fuses: its index in the pool. */
  worker: number;
  answers: string[];
}

/** The fewest and most runs of a comparison, and how many the page offers first. */
export const COMPARE_RUNS = { min: 2, max: 6, default: 4 } as const;

/** The key slots a request's workers and Conductor may use: the page unlocks just these. */
export function slotsNeeded(request: Pick<AskRequest, 'pool' | 'conductor'>): string[] {
  const c = request.conductor;
  const remote = c.kind === 'remote-endpoint' ? keySlot({ provider: 'openai-compatible', baseUrl: c.baseUrl }) : undefined;
  return [...new Set([...request.pool.flatMap((w) => keySlot(w) ?? []), ...(remote ? [remote] : [])])];
}
