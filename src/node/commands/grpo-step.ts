/**
 * `baton grpo-step`: exactly one GRPO optimiser step of a LoRA adapter on a batch file, from fresh
 * AdamW state, with Baton's engine (core/rl's grpoStep over engine/train's GpuTrainer). Writes the
 * updated adapter (PEFT layout) and the gradient before clipping under the adapter's tensor names,
 * and prints one JSON line of the step's loss and metrics. What the numbers are is what TRL's
 * GRPOTrainer logs for the same batch, so the two can be compared step for step.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GRPO_LOSS_TYPES, grpoStep, loraState, parseGrpoBatch } from '../../core/rl/index.ts';
import { filesFromDir } from '../../engine/model/files-node.ts';
import { ADAPTER_CONFIG, ADAPTER_WEIGHTS, readPeftAdapter, writeSafetensors } from '../../engine/model/index.ts';
import { GpuTrainer, GradientCapture } from '../../engine/train/index.ts';
import { choice, CliError, int, num, parseFlags, positive, printHelp, readTextFlag, text, type CliIo } from '../cli/index.ts';
import { MODEL_FLAGS, modelRefOf, openNodeModel } from '../models/index.ts';

const FLAGS = {
  ...MODEL_FLAGS,
  batch: text({ arg: 'FILE', help: '{"groups":[{"prompt_ids":[..],"completions":[{"ids":[..],"reward":r,"old_logprobs":[..]?}]}]}' }),
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
  'loss-type': choice(GRPO_LOSS_TYPES, { arg: GRPO_LOSS_TYPES.join('|'), help: 'loss aggregation', default: 'bnpo' }),
  beta: num({ arg: 'B', help: 'KL coefficient; the reference is the base without the adapter', default: 0 }),
  epsilon: num({ arg: 'E', help: 'lower clipping range', default: 0.2 }),
  'epsilon-high': num({ arg: 'E', help: 'upper clipping range (default: --epsilon)' }),
  temperature: num({ arg: 'T', help: 'the temperature the batch was sampled at', default: 1, check: positive }),
  'max-completion-length': int({ arg: 'N', help: "dr_grpo's normaliser", default: 256 }),
  lr: num({ arg: 'LR', help: 'learning rate', default: 1e-6 }),
  'weight-decay': num({ arg: 'W', help: "AdamW's decoupled weight decay", default: 0 }),
  'max-grad-norm': num({ arg: 'C', help: 'global gradient-norm clipping; 0 turns it off', default: 1 }),
};

const HELP = {
  usage: `usage: baton grpo-step --model DIR --lora IN --batch FILE --out DIR [options]

One GRPO optimiser step of the LoRA adapter IN on the batch, from fresh AdamW state. Writes
OUT/${ADAPTER_CONFIG} and OUT/${ADAPTER_WEIGHTS} (the adapter after the step) and OUT/grads.safetensors
(the gradient before clipping, under the adapter's tensor names), and prints one JSON line
{"loss","gradNorm","clipRatio","kl","entropy","tokens","lr"} (kl is null when beta is 0).
Defaults are TRL's GRPOConfig's, except the loss type (Baton's and the paper's bnpo; TRL's is dapo).
`,
  flags: FLAGS,
};

async function outputDir(io: CliIo, out: string | undefined): Promise<string> {
  if (!out) throw new CliError('--out DIR is required', 2);
  const dir = resolve(io.cwd, out);
  const entries = await readdir(dir).catch(() => []);
  if (entries.length > 0) throw new CliError(`--out ${out} is not empty; choose a new directory so nothing is overwritten`, 2);
  return dir;
}

export async function grpoStepCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  const choice = modelRefOf(values, io.cwd);
  if (!choice.loraDir) throw new CliError('--lora IN is required: the adapter to train (baton adapter init makes a new one)', 2);
  if (!values.batch) throw new CliError('--batch FILE is required', 2);
  const grpo = {
    beta: values.beta,
    epsilonLow: values.epsilon,
    epsilonHigh: values['epsilon-high'] ?? values.epsilon,
    lossType: values['loss-type'],
    maxCompletionLength: values['max-completion-length'],
  };
  const { temperature } = values;
  const optimizer = { lr: values.lr, weightDecay: values['weight-decay'], maxGradNorm: values['max-grad-norm'] };
  const batch = parseGrpoBatch(await readTextFlag(io, 'batch', values.batch));
  const out = await outputDir(io, values.out);
  const adapter = await readPeftAdapter(filesFromDir(choice.loraDir));

  const loaded = await openNodeModel({ modelDir: choice.modelDir, ...(choice.weights ? { weights: choice.weights } : {}) });
  try {
    const policy = new GradientCapture(await GpuTrainer.create(loaded.model, { wrt: 'lora', lora: adapter, optimizer }));
    const sequences = batch.groups.reduce((n, g) => n + g.completions.length, 0);
    const result = await grpoStep(policy, batch, { grpo, scaleRewards: 'group', temperature, microBatchSize: sequences });
    const state = loraState(await policy.trainer.exportState());
    const r = adapter.config.r;
    const grads = [...policy.captured].map(([name, data]) => {
      const [, path, part] = /^(.*)\.lora_([AB])$/.exec(name)!;
      const m = adapter.weights.get(path)!;
      return {
        name: `base_model.model.${path}.lora_${part}.weight`,
        dtype: 'F32' as const,
        shape: part === 'A' ? [r, m.inFeatures] : [m.outFeatures, r],
        data,
      };
    });
    await mkdir(out, { recursive: true });
    await writeFile(join(out, ADAPTER_CONFIG), state.adapterConfig);
    await writeFile(join(out, ADAPTER_WEIGHTS), state.adapter);
    await writeFile(join(out, 'grads.safetensors'), writeSafetensors(grads, { format: 'pt' }));
    policy.trainer.destroy();
    const { loss, gradNorm, clipRatio, kl, entropy, tokens, lr } = result;
    io.stdout(
      `${JSON.stringify({ loss, gradNorm, clipRatio, kl: kl ?? null, entropy, tokens, lr, ...(result.skipped ? { skipped: result.skipped } : {}) })}\n`,
    );
    return result.skipped ? 1 : 0;
  } finally {
    loaded.close();
  }
}
