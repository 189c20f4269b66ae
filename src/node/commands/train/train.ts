/**
 * `baton train`: GRPO on a LoRA adapter of a Conductor, or on every weight (--full), with Baton's engine
 * on Dawn: Q questions x G sampled workflows a step, run on a worker pool, rewarded, one update. flags.ts
 * reads the settings (flags, --config, or a resumed run's config.json); run.ts runs them (core/rl's
 * training session, the Train page's too). Writes OUT/config.json (the run's settings),
 * OUT/metrics.jsonl (one line a step), OUT/episodes.jsonl (every rollout), OUT/checkpoints/ and, at the
 * end, OUT/adapter/ in PEFT layout or, with --full, OUT/model/ (a whole model directory). Ctrl-C
 * checkpoints the last finished step and stops; `--resume OUT` continues from the newest checkpoint as if
 * never stopped (settings from OUT/config.json; --steps may extend the run).
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseFlags, printHelp, readTextFlag, type CliIo } from '../../cli/index.ts';
import { outputDir } from '../../stores/index.ts';
import { FLAGS, HELP, settingsFromFlags, withConfigFile } from './flags.ts';
import { runTrain, type TrainSettings } from './run.ts';

export async function trainCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(await withConfigFile(argv, io), FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  let out: string;
  let settings: TrainSettings;
  if (values.resume) {
    out = resolve(io.cwd, values.resume);
    settings = JSON.parse(await readTextFlag(io, 'resume', join(out, 'config.json'))) as TrainSettings;
    if (values.steps) settings.steps = values.steps;
  } else {
    settings = settingsFromFlags(values, io.cwd);
    out = await outputDir(io, values.out, [settings.modelDir]);
    await writeFile(join(out, 'config.json'), `${JSON.stringify(settings, null, 2)}\n`);
  }
  return runTrain(settings, out, io, values.resume !== undefined);
}
