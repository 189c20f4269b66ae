/**
 * How a Conductor was trained to be prompted and to answer (baton train's --prompt, --constrain,
 * --max-steps, --subtasks and --max-subtask-chars), kept as conductor.json beside the trained weights or
 * adapter, so that whoever runs it later runs it the same way: a Conductor trained on the compact prompt
 * and on the lists alone writes text it never saw under the Ask prompt. Test:
 * test/unit/core/rl/trained-format.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { FIXED_SUBTASKS, type WorkflowFormat } from '../workflow/constrain/index.ts';
import { compactPrompt, compactPromptWithin } from './compact-prompt.ts';
import { askPrompt, type ConductorPromptFor } from './rollout.ts';

export const TRAINED_FORMAT_FILE = 'conductor.json';

export interface TrainedFormat {
  prompt: 'ask' | 'compact';
  /** Sampled under the workflow constraint: the lists alone. */
  constrain: boolean;
  maxSteps: number;
  /** Every subtask a fixed text (FIXED_SUBTASKS). */
  fixedSubtasks?: boolean;
  maxSubtaskChars?: number;
  /** The compact prompt reads the question's first this many characters (absent: all of it). */
  questionChars?: number;
  /** Fixed text decoded by jump-forward (WorkflowFormat.jumpForward), as Baton trains since it has it; absent before. */
  jumpForward?: boolean;
}

export function trainedFormatJson(f: TrainedFormat): string {
  return `${JSON.stringify(f, null, 2)}\n`;
}

export function parseTrainedFormat(text: string, source: string): TrainedFormat {
  const bad = (why: string) => new BatonError({ code: 'engine/model-file', message: `${source}: ${why}` });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw bad(`not JSON (${(e as Error).message})`);
  }
  const f = raw as Partial<Record<keyof TrainedFormat, unknown>>;
  if (typeof f !== 'object' || f === null) throw bad('must be a JSON object');
  if (f.prompt !== 'ask' && f.prompt !== 'compact') throw bad(`"prompt" must be "ask" or "compact", got ${JSON.stringify(f.prompt)}`);
  if (typeof f.constrain !== 'boolean') throw bad('"constrain" must be true or false');
  if (!(Number.isInteger(f.maxSteps) && (f.maxSteps as number) >= 1))
    throw bad(`"maxSteps" must be a whole number of at least 1, got ${JSON.stringify(f.maxSteps)}`);
  if (f.fixedSubtasks !== undefined && typeof f.fixedSubtasks !== 'boolean') throw bad('"fixedSubtasks" must be true or false');
  if (f.maxSubtaskChars !== undefined && !(Number.isInteger(f.maxSubtaskChars) && (f.maxSubtaskChars as number) >= 1))
    throw bad('"maxSubtaskChars" must be a whole number of at least 1');
  if (f.questionChars !== undefined && !(Number.isInteger(f.questionChars) && (f.questionChars as number) >= 1))
    throw bad('"questionChars" must be a whole number of at least 1');
  if (f.jumpForward !== undefined && typeof f.jumpForward !== 'boolean') throw bad('"jumpForward" must be true or false');
  return {
    prompt: f.prompt,
    constrain: f.constrain,
    maxSteps: f.maxSteps as number,
    ...(f.fixedSubtasks ? { fixedSubtasks: true } : {}),
    ...(f.maxSubtaskChars !== undefined ? { maxSubtaskChars: f.maxSubtaskChars as number } : {}),
    ...(f.questionChars !== undefined ? { questionChars: f.questionChars as number } : {}),
    ...(f.jumpForward ? { jumpForward: true } : {}),
  };
}

/** Where a model's or adapter's files are (the engine's ModelFiles: a directory, a URL, picked files, the tab's storage). */
interface TrainedFiles {
  readonly name: string;
  /** Byte size, or undefined when the file does not exist. */
  size(path: string): Promise<number | undefined>;
  read(path: string): Promise<Uint8Array>;
}

/**
 * The format from the first of `sources` that holds conductor.json: the adapter's before the model's, since
 * the adapter is what was trained. Undefined when none does: such a model runs as any model does.
 */
export async function readTrainedFormat(sources: readonly (TrainedFiles | undefined)[]): Promise<TrainedFormat | undefined> {
  for (const files of sources) {
    if (!files || (await files.size(TRAINED_FORMAT_FILE)) === undefined) continue;
    const text = new TextDecoder().decode(await files.read(TRAINED_FORMAT_FILE));
    return parseTrainedFormat(text, `${TRAINED_FORMAT_FILE} in ${files.name}`);
  }
  return undefined;
}

/** In words, for whoever chooses the Conductor: how it runs because of its conductor.json. */
export function describeTrainedFormat(f: TrainedFormat): string {
  const subtasks = f.fixedSubtasks ? ', fixed subtask texts' : f.maxSubtaskChars !== undefined ? `, subtasks of up to ${f.maxSubtaskChars} characters` : '';
  const steps = `plans of at most ${f.maxSteps} step${f.maxSteps === 1 ? '' : 's'}`;
  const prompt =
    f.prompt === 'compact' ? `the short prompt${f.questionChars ? ` reading ${f.questionChars} characters of the question` : ''}` : 'the Ask prompt';
  return `${prompt}, ${f.constrain ? `the lists alone, ${steps}${subtasks}` : steps}`;
}

/** The first round's prompt it was trained on. */
export function trainedPrompt(f: TrainedFormat): ConductorPromptFor {
  if (f.prompt === 'ask') return askPrompt;
  return f.questionChars === undefined ? compactPrompt : compactPromptWithin(f.questionChars);
}

/** The workflow constraint it was sampled under, for a pool of `workers` (training samples the lists alone). */
export function trainedWorkflowFormat(f: TrainedFormat, workers: number, recursion = false): WorkflowFormat {
  return {
    workers,
    maxSteps: f.maxSteps,
    access: 'binary',
    allowReasoning: false,
    recursion,
    ...(f.maxSubtaskChars === undefined ? {} : { maxSubtaskChars: f.maxSubtaskChars }),
    ...(f.fixedSubtasks ? { fixedSubtasks: FIXED_SUBTASKS } : {}),
    ...(f.jumpForward ? { jumpForward: true } : {}),
  };
}
