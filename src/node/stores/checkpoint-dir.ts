/**
 * GRPO checkpoints as a directory (core/rl's CheckpointStore in Node):
 *   DIR/step-000012/adapter_config.json, adapter_model.safetensors   the adapter, PEFT layout (LoRA runs)
 *   DIR/step-000012/model.safetensors                                every weight, F32 (full fine-tuning)
 *   DIR/step-000012/optimizer.bin                                    AdamW's state (the engine's layout)
 *   DIR/step-000012/checkpoint.json                                  {step, seed, metrics}
 *   DIR/latest                                                       the newest complete one's name
 * A checkpoint is written under a temporary name and renamed, and `latest` replaced the same way, so a
 * kill at any moment leaves the previous checkpoint readable.
 */
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// Types only: core/rl's index loads the training stack, which a command opening just an episode directory should not pay for.
import type { CheckpointStore, GrpoCheckpoint, GrpoStepMetrics, TrainingState } from '../../core/rl/index.ts';
import { ADAPTER_CONFIG, ADAPTER_WEIGHTS, SINGLE_FILE } from '../../engine/model/index.ts';
import { CliError } from '../cli/index.ts';

const OPTIMIZER = 'optimizer.bin';
const META = 'checkpoint.json';
const LATEST = 'latest';

const nameOf = (step: number) => `step-${String(step).padStart(6, '0')}`;

async function writeState(dir: string, state: TrainingState): Promise<void> {
  if ('weights' in state) {
    await writeFile(join(dir, SINGLE_FILE), state.weights);
  } else {
    await writeFile(join(dir, ADAPTER_CONFIG), state.adapterConfig);
    await writeFile(join(dir, ADAPTER_WEIGHTS), state.adapter);
  }
  await writeFile(join(dir, OPTIMIZER), state.optimizer);
}

async function readState(dir: string): Promise<TrainingState> {
  const optimizer = new Uint8Array(await readFile(join(dir, OPTIMIZER)));
  const full = await access(join(dir, SINGLE_FILE)).then(
    () => true,
    () => false,
  );
  if (full) return { weights: new Uint8Array(await readFile(join(dir, SINGLE_FILE))), optimizer };
  return { adapterConfig: await readFile(join(dir, ADAPTER_CONFIG), 'utf8'), adapter: new Uint8Array(await readFile(join(dir, ADAPTER_WEIGHTS))), optimizer };
}

export function checkpointDir<M = GrpoStepMetrics>(dir: string): CheckpointStore<M> {
  return {
    async save(c: GrpoCheckpoint<M>): Promise<void> {
      const name = nameOf(c.step);
      const partial = join(dir, `${name}.partial`);
      await rm(partial, { recursive: true, force: true });
      await mkdir(partial, { recursive: true });
      await writeState(partial, c.state);
      await writeFile(join(partial, META), `${JSON.stringify({ step: c.step, seed: c.seed, metrics: c.metrics })}\n`);
      await rm(join(dir, name), { recursive: true, force: true });
      await rename(partial, join(dir, name));
      await writeFile(join(dir, `${LATEST}.partial`), name);
      await rename(join(dir, `${LATEST}.partial`), join(dir, LATEST));
    },
  };
}

/** The newest complete checkpoint in DIR; a CliError when there is none. */
export async function readLatestCheckpoint<M = GrpoStepMetrics>(dir: string): Promise<GrpoCheckpoint<M>> {
  let name: string;
  try {
    name = (await readFile(join(dir, LATEST), 'utf8')).trim();
  } catch {
    throw new CliError(`no checkpoint in ${dir} (no "${LATEST}" file): the run stopped before its first checkpoint; start it again`, 2);
  }
  const at = join(dir, name);
  const meta = JSON.parse(await readFile(join(at, META), 'utf8')) as Omit<GrpoCheckpoint<M>, 'state'>;
  return { ...meta, state: await readState(at) };
}
