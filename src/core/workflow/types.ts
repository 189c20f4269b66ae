/** Which earlier steps a step may see: 'all', or a list of earlier step indices ([] = only the task). */
export type Access = 'all' | number[];

export interface Step {
  /** Index into the worker pool: the `Model id` the Conductor saw. */
  worker: number;
  subtask: string;
  access: Access;
}

export interface Workflow {
  steps: Step[];
}

/** binary: each access entry is "all" or []; positional: also lists of earlier step indices. */
export type AccessMode = 'binary' | 'positional';

export type ParseResult =
  | { ok: true; workflow: Workflow; /** recursion round: three empty lists = keep the previous answer */ keep?: false }
  | { ok: true; keep: true; workflow: { steps: [] } }
  | { ok: false; error: string };

export interface ParseOptions {
  /** Pool size: model ids must be below it. Absent = no upper bound (e.g. `baton parse` without --workers). */
  workers?: number;
  maxSteps?: number; // default 5
  access?: AccessMode; // default 'positional' (it accepts everything binary does)
  /** Allow three empty lists (a recursion round's "keep the previous answer"). */
  recursion?: boolean;
}

export const DEFAULT_MAX_STEPS = 5;
