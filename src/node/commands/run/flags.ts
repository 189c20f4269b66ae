/** `baton run`'s flags and help. */
import { TASK_KINDS } from '../../../core/task.ts';
import { DEFAULT_MAX_STEPS } from '../../../core/workflow/index.ts';
import { atLeast, choice, int, notNegative, num, text, toggle } from '../../cli/index.ts';
import { REPLAY_FLAG } from '../../inputs/index.ts';
import { CONDUCTOR_CHOICE_HELP } from '../../runtimes/index.ts';

export const FLAGS = {
  task: text({ arg: 'TEXT', help: 'the question' }),
  answer: text({
    arg: 'A',
    help:
      'its gold answer (then the run is graded); for --kind code, the tests as JSON, as baton grade --kind code takes them ' +
      "(the answer's Python runs in a sandbox)",
  }),
  kind: choice(TASK_KINDS, { arg: 'K', help: `${TASK_KINDS.join(' | ')} (default: number for a numeric answer, exact otherwise, open without one)` }),
  pool: text({
    arg: 'FILE',
    help:
      'JSON {"workers": [WorkerSpec...]} or a bare array; keys come from the environment. ' +
      "'demo' is the built-in pool of four simulated workers (no keys, no network), 'experts' the simulated pool where only routing by kind " +
      'works, \'routellm-mmlu\' GPT-4 and Mixtral replaying their recorded MMLU answers. An "engine" worker runs the model directory its ' +
      '"model" names (relative to here) on this machine\'s GPU',
  }),
  conductor: text({ arg: 'SPEC', help: CONDUCTOR_CHOICE_HELP }),
  lora: text({ arg: 'DIR', help: 'a LoRA adapter for an engine: Conductor that names none' }),
  replay: REPLAY_FLAG,
  seed: int({ arg: 'S', help: 'seed of every simulated worker' }),
  recursion: int({ arg: 'N', help: 'recursion rounds after the first', default: 0, check: notNegative }),
  'max-steps': int({ arg: 'K', help: 'most steps per workflow', default: DEFAULT_MAX_STEPS, check: atLeast(1) }),
  access: choice(['binary', 'positional'], { arg: 'MODE', help: 'binary or positional', default: 'binary' }),
  budget: num({ arg: 'USD', help: 'total dollar cap over every worker call' }),
  'max-tokens': int({ arg: 'N', help: "output tokens per step (default: the worker's, else 4096)" }),
  timeout: int({ arg: 'MS', help: 'time limit of each worker call' }),
  'episodes-dir': text({ arg: 'DIR', help: 'where the episode is kept (default: $BATON_EPISODES_DIR, else ./episodes)' }),
  'no-save': toggle({ help: 'do not keep the episode' }),
  'episode-out': text({ arg: 'FILE', help: 'also append the episode as one JSON line to FILE' }),
  json: toggle({ help: 'print the whole episode as JSON instead of the summary' }),
};

export const HELP = {
  usage: `usage: baton run --task TEXT --pool pool.json --conductor SPEC [options]

Runs one question: the Conductor writes a workflow, the pool's workers run it, the answer is graded
when --answer is given.
`,
  flags: FLAGS,
};
