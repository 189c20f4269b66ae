/** What the runner needs of a method: a Conductor for each run, and the run options its workflows need. */
import type { Conductor, RunOptions } from '../../orchestra/index.ts';
import type { WorkerModel } from '../../providers/index.ts';
import type { Task } from '../../task.ts';

interface MethodRun {
  task: Task;
  /** Position of the item in the evaluation's list. */
  index: number;
  repeat: number;
  /** A seed for this (method, item, repeat): the same on a resumed run. */
  seed: number;
  /** The pool this run calls, every call recorded for resume. */
  pool: WorkerModel[];
  /** Records a worker that is not in the pool (a remote Conductor) the same way. */
  record: (worker: WorkerModel) => WorkerModel;
}

export interface EvalMethod {
  /** The method string as given (`single:gpt`): the episodes' `method:` tag and the report's row. */
  name: string;
  conductor(run: MethodRun): Conductor | Promise<Conductor>;
  /** maxSteps and access where the method's workflows need more than the defaults. */
  runOptions?: Pick<RunOptions, 'maxSteps' | 'access'>;
}
