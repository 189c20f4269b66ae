import type { Episode, RoundRecord, StepRecord } from '../episodes/index.ts';
import type { ChatMessage, Usage } from '../providers/index.ts';
import type { Workflow } from '../workflow/index.ts';

/**
 * Everything a run reports while it goes, for the UI and the CLI. `round` is 0 for the first workflow,
 * 1... for recursion rounds; `index` is the step's index in its round's workflow.
 */
export type RunEvent =
  | { type: 'conductor-delta'; round: number; text: string }
  | {
      type: 'conductor-done';
      round: number;
      completion: string;
      workflow?: Workflow;
      parseError?: string;
      kept?: boolean;
      /** The Conductor's own call, where its runtime bills one (a pool worker playing it). */
      usage?: Usage;
      costUsd?: number | null;
    }
  /** The Conductor's own call failed (not stopped): no plan this round; the run ends with `error`. */
  | { type: 'conductor-failed'; round: number; error: { code: string; message: string } }
  | { type: 'step-queued'; round: number; index: number; worker: number; workerId: string }
  | { type: 'step-started'; round: number; index: number; messages: ChatMessage[] }
  | { type: 'step-delta'; round: number; index: number; text: string }
  | { type: 'step-done'; round: number; index: number; step: StepRecord }
  | { type: 'step-failed'; round: number; index: number; step: StepRecord }
  | { type: 'round-done'; round: number; record: RoundRecord }
  | { type: 'run-done'; episode: Episode };

export type RunEventListener = (event: RunEvent) => void;
