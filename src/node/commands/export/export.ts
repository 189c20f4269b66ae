/**
 * `baton export trl|verl`: a task set and everything an outside RL engine needs to train the Conductor on
 * it with Baton's reward server: the rows as JSONL and Parquet in the engine's columns, the Python reward
 * module (standard library only), a launch script and configuration with the paper's recipe, the pool
 * and a README (start the server, train, bring the adapter back).
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '../../../core/task.ts';
import { DEFAULT_MAX_STEPS } from '../../../core/workflow/index.ts';
import { atLeast, CliError, int, parseFlags, printHelp, text, toggle, type CliIo } from '../../cli/index.ts';
import { readPoolFlag, readTasksFlag, TASK_DATASETS } from '../../inputs/index.ts';
import { REWARD_KINDS } from '../../reward-server/index.ts';
import { outputDir } from '../../stores/index.ts';
import { exportReadme } from './export-readme.ts';
import { trlConfig, trlLaunch, verlLaunch, type LaunchOptions } from './launch-files.ts';
import { writeTrlParquet, writeVerlParquet } from './parquet.ts';
import { EXPORT_DEFAULTS, PAPER_RECIPE } from './recipe.ts';
import { trlRows, verlRows } from './task-rows.ts';

const ENGINES = ['trl', 'verl'] as const;
type Engine = (typeof ENGINES)[number];

const PYTHON = new URL('./python/', import.meta.url);

const FLAGS = {
  tasks: text({
    arg: 'T',
    help: `a JSONL of {question, answer, kind, choices?}, experts (split train/held-out by --seed), or a dataset Baton ships: ${TASK_DATASETS.join(', ')}`,
  }),
  pool: text({ arg: 'P', help: 'the pool the prompts are written for: a pool file, demo or experts' }),
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
  model: text({ arg: 'HF_ID', help: "base model; the default is the paper's", default: 'Qwen/Qwen2.5-7B-Instruct' }),
  lora: toggle({ help: 'train a LoRA adapter (the default)' }),
  full: toggle({ help: "full fine-tuning (the paper's)" }),
  'reward-url': text({
    arg: 'URL',
    help: 'the reward server the module calls by default',
    default: 'http://127.0.0.1:8400/v1/reward',
    check: (url) => (/^https?:\/\/[^\s"'\\]+$/.test(url) ? undefined : `must be an http(s) URL, got "${url}"`),
  }),
  'max-steps': int({ arg: 'N', help: 'most steps per workflow; give serve-reward the same', default: DEFAULT_MAX_STEPS, check: atLeast(1) }),
  seed: int({ arg: 'S', help: 'seed of the experts split', default: 0 }),
};

const HELP = {
  usage: `usage: baton export trl|verl --tasks T --pool P --out DIR [options]
       baton export train-bundle --config FILE --out DIR [--with-model]   (baton export train-bundle --help)

Writes what TRL (GRPOTrainer) or verl needs to train the Conductor on a GPU cluster, rewarded by
baton serve-reward: the tasks as train.parquet and train.jsonl (Baton's Conductor prompt for each
question and the pool, with answer and kind), baton_reward.py (the reward functions, Python standard
library only), a launch script and configuration with the paper's recipe, pool.json and README.md.
`,
  flags: FLAGS,
};

function checkTasks(tasks: Task[], source: string): void {
  if (tasks.length === 0) throw new CliError(`--tasks ${source} holds no tasks`);
  const ungradable = tasks.findIndex((t) => !(REWARD_KINDS as readonly string[]).includes(t.kind) || !t.answer?.trim());
  if (ungradable >= 0) {
    throw new CliError(
      `--tasks ${source}: task ${ungradable + 1} (kind "${tasks[ungradable].kind}") cannot be rewarded: the reward server grades ${REWARD_KINDS.join(', ')} with a gold answer`,
    );
  }
}

const jsonl = (rows: object[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

export async function exportCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'train-bundle') return (await import('./train-bundle.ts')).exportTrainBundleCommand(argv.slice(1), io);
  const args = parseFlags(argv, FLAGS, { positionals: true });
  if (args.help) return printHelp(io, HELP);
  const { values, positionals } = args;
  const engine = positionals[0] as Engine;
  if (positionals.length !== 1 || !ENGINES.includes(engine))
    throw new CliError(`say what to export: baton export trl|verl|train-bundle (got ${positionals.join(' ') || 'none'})`, 2);
  for (const flag of ['tasks', 'pool'] as const) if (!values[flag]) throw new CliError(`--${flag} is required (see baton export --help)`, 2);
  if (values.lora && values.full) throw new CliError('--lora and --full exclude each other', 2);
  const mode = values.full ? 'full' : 'lora';
  const { model, seed } = values;
  const rewardUrl = values['reward-url'];
  const maxSteps = values['max-steps'];

  const pool = await readPoolFlag(io, values.pool!);
  const { train, heldOut } = await readTasksFlag(io, values.tasks!, seed);
  checkTasks([...train, ...heldOut], values.tasks!);
  const out = await outputDir(io, values.out, []);
  const format = { maxSteps };

  const sets = [
    ['train', train],
    ['test', heldOut],
  ] as const;
  for (const [split, tasks] of sets) {
    if (tasks.length === 0) continue;
    if (engine === 'trl') {
      const rows = trlRows(tasks, pool, format);
      await writeFile(join(out, `${split}.jsonl`), jsonl(rows));
      writeTrlParquet(join(out, `${split}.parquet`), rows);
    } else {
      const rows = verlRows(tasks, pool, format, split);
      await writeFile(join(out, `${split}.jsonl`), jsonl(rows));
      writeVerlParquet(join(out, `${split}.parquet`), rows);
    }
  }

  const reward = await readFile(new URL('baton_reward.py', PYTHON), 'utf8');
  await writeFile(join(out, 'baton_reward.py'), reward.replace(/^DEFAULT_URL = .*$/m, `DEFAULT_URL = ${JSON.stringify(rewardUrl)}`));
  const launch: LaunchOptions = { model, mode, rewardUrl, heldOut: heldOut.length > 0 };
  if (engine === 'trl') {
    await copyFile(new URL('train_trl.py', PYTHON), join(out, 'train_trl.py'));
    await writeFile(join(out, 'grpo_config.json'), `${JSON.stringify(trlConfig(launch), null, 2)}\n`);
  }
  await writeFile(join(out, 'launch.sh'), engine === 'trl' ? trlLaunch(launch) : verlLaunch(launch), { mode: 0o755 });
  await writeFile(join(out, 'pool.json'), `${JSON.stringify({ workers: pool }, null, 2)}\n`);
  const facts = { engine, model, mode, rewardUrl, maxSteps, tasks: values.tasks!, train: train.length, heldOut: heldOut.length, workers: pool.length } as const;
  await writeFile(join(out, 'README.md'), exportReadme(facts));
  await writeFile(
    join(out, 'baton-export.json'),
    `${JSON.stringify({ ...facts, serveReward: `npx baton serve-reward --pool pool.json --max-steps ${maxSteps}`, recipe: PAPER_RECIPE, exportDefaults: EXPORT_DEFAULTS }, null, 2)}\n`,
  );
  io.stdout(`${JSON.stringify({ out, engine, train: train.length, heldOut: heldOut.length, mode, model })}\n`);
  return 0;
}
