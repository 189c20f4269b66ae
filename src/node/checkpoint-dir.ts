/**
 * GRPO checkpoints as a directory (core/rl's CheckpointStore in Node):
 *   DIR/step-000012/adapter_config.json, adapter_model.safetensors   the adapter, PEFT layout
 *   DIR/step-000012/optimizer.bin                                    AdamW's state (the engine's layout)
 *   DIR/step-000012/checkpoint.json                                  {step, seed, metrics}
 *   DIR/latest                                                       the newest complete one's name
 * A checkpoint is written under a temporary name and renamed, and `latest` replaced the same way, so a
 * kill at any moment leaves the previous checkpoint readable.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointStore, GrpoCheckpoint } from '../core/rl/index.ts';
import { ADAPTER_CONFIG, ADAPTER_WEIGHTS } from '../engine/model/index.ts';
import { CliError } from './io.ts';

const OPTIMIZER = 'optimizer.bin';
const META = 'checkpoint.json';
const LATEST = 'latest';

const nameOf = (step: number) => `step-${String(step).padStart(6, '0')}`;

export function checkpointDir(dir: string): CheckpointStore {
  return {
    async save(c: GrpoCheckpoint): Promise<void> {
      const name = nameOf(c.step);
      const partial = join(dir, `${name}.partial`);
      await rm(partial, { recursive: true, force: true });
      await mkdir(partial, { recursive: true });
      await writeFile(join(partial, ADAPTER_CONFIG), c.state.adapterConfig);
      await writeFile(join(partial, ADAPTER_WEIGHTS), c.state.adapter);
      await writeFile(join(partial, OPTIMIZER), c.state.optimizer);
      await writeFile(join(partial, META), `${JSON.stringify({ step: c.step, seed: c.seed, metrics: c.metrics })}\n`);
      await rm(join(dir, name), { recursive: true, force: true });
      await rename(partial, join(dir, name));
      await writeFile(join(dir, `${LATEST}.partial`), name);
      await rename(join(dir, `${LATEST}.partial`), join(dir, LATEST));
    },
  };
}

/** The newest complete checkpoint in DIR; a CliError when there is none. */
export async function readLatestCheckpoint(dir: string): Promise<GrpoCheckpoint> {
  let name: string;
  try {
    name = (await readFile(join(dir, LATEST), 'utf8')).trim();
  } catch {
    throw new CliError(`no checkpoint in ${dir} (no "${LATEST}" file): the run stopped before its first checkpoint; start it again`, 2);
  }
  const at = join(dir, name);
  const meta = JSON.parse(await readFile(join(at, META), 'utf8')) as Omit<GrpoCheckpoint, 'state'>;
  return {
    ...meta,
    state: {
      adapterConfig: await readFile(join(at, ADAPTER_CONFIG), 'utf8'),
      adapter: new Uint8Array(await readFile(join(at, ADAPTER_WEIGHTS))),
      optimizer: new Uint8Array(await readFile(join(at, OPTIMIZER))),
    },
  };
}
