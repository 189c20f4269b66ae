/**
 * The `baton` CLI: its commands, each loaded when it runs, and main, which runs one and turns what it
 * throws into one line on stderr and an exit status (2 for a usage error). It sits above the rooms of
 * src/node, which share cli/ (flags, input and output, usage errors) and never import it.
 */
import { BatonError } from '../core/errors/index.ts';
import { CliError, processIo, type CliIo } from './cli/index.ts';

type Command = (argv: string[], io: CliIo) => Promise<number>;

// Loaded on demand so that `baton parse` never pays for the engine or the AI SDK.
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  parse: { summary: 'parse a Conductor completion (stdin) into a workflow', load: async () => (await import('./commands/parse.ts')).parseCommand },
  grade: { summary: 'grade a response against a gold answer', load: async () => (await import('./commands/grade.ts')).gradeCommand },
  run: { summary: 'run one question end to end over a worker pool', load: async () => (await import('./commands/run/index.ts')).runCommand },
  eval: {
    summary: 'evaluate methods (Conductor, single workers, oracle, MoA, baselines) on a data set',
    load: async () => (await import('./commands/eval/index.ts')).evalCommand,
  },
  episodes: { summary: 'export | import | stats of an episode directory', load: async () => (await import('./commands/episodes/index.ts')).episodesCommand },
  generate: { summary: "sample from a model with Baton's engine", load: async () => (await import('./commands/generate.ts')).generateCommand },
  logprobs: { summary: 'per-token log-probabilities of a sequence', load: async () => (await import('./commands/logprobs.ts')).logprobsCommand },
  'grpo-step': { summary: 'one GRPO step of a LoRA adapter on a batch file', load: async () => (await import('./commands/grpo-step.ts')).grpoStepCommand },
  train: {
    summary: 'GRPO training of a Conductor on a worker pool (metrics, checkpoints, --resume)',
    load: async () => (await import('./commands/train/index.ts')).trainCommand,
  },
  'init-model': {
    summary: 'a small random-initialised Conductor to train from scratch',
    load: async () => (await import('./commands/init-model.ts')).initModelCommand,
  },
  pretrain: {
    summary: 'next-token training of a Conductor on the prompts it will be trained on, before baton train',
    load: async () => (await import('./commands/pretrain.ts')).pretrainCommand,
  },
  'serve-reward': {
    summary: 'serve rewards over HTTP for an outside RL trainer (TRL, verl)',
    load: async () => (await import('./commands/serve-reward.ts')).serveRewardCommand,
  },
  export: {
    summary: 'tasks, reward module and launch files for TRL or verl; train-bundle: a baton train run for a GPU server',
    load: async () => (await import('./commands/export/index.ts')).exportCommand,
  },
  adapter: {
    summary: 'init a LoRA adapter (PEFT layout) | merge one into its base model',
    load: async () => (await import('./commands/adapter.ts')).adapterCommand,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: baton <command> [options]   (baton <command> --help for its options)\n\n${lines.join('\n')}\n`;
}

/** Runs the CLI; returns the exit status. Errors become one line on stderr (a stack only with --debug). */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const debug = argv.includes('--debug');
  const args = argv.filter((a) => a !== '--debug');
  const [name, ...rest] = args;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`baton: unknown command "${name}"\n${usage()}`);
    return 2;
  }
  try {
    return await (
      await command.load()
    )(rest, io);
  } catch (e) {
    if (debug) io.stderr(`${(e as Error)?.stack ?? String(e)}\n`);
    const message = e instanceof CliError || e instanceof BatonError ? e.message : `unexpected error: ${(e as Error)?.message ?? String(e)}`;
    io.stderr(`baton ${name}: ${message.split('\n')[0]}\n`);
    return e instanceof CliError ? e.exitCode : 1;
  }
}
