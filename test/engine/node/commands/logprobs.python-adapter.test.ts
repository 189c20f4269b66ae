/**
 * Coming back from TRL or verl on the engine: `baton logprobs --lora` with an adapter written by an
 * independent (Python) writer in PEFT's layout scores as `baton logprobs` on the model Python merged it into.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../src/node/main.ts';
import { checkTensor } from '../../../support/check-tensor.ts';
import { recordingIo } from '../../../support/cli-io.ts';
import { HAS_PYTHON, writeAdapterWithPython } from '../../../support/peft-python-writer.ts';
import { writeTinyModel } from '../../../support/tiny-model.ts';

const IDS = [12, 250, 3, 64, 9, 101];

describe.skipIf(!HAS_PYTHON)(`baton logprobs --lora with a PEFT adapter written in Python${HAS_PYTHON ? '' : ' (skipped: no python3 on this machine)'}`, () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-logprobs-python-'));
    await writeTinyModel(join(dir, 'model'), { architecture: 'qwen2', dtype: 'F32', seed: 11, vocab: 256, tokenizer: 'none' });
    await writeAdapterWithPython(dir);
    await writeFile(join(dir, 'ids.json'), JSON.stringify(IDS));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const logprobs = async (...args: string[]) => {
    const io = recordingIo(dir);
    expect(await main(['logprobs', ...args, '--ids', 'ids.json'], io), io.err).toBe(0);
    return JSON.parse(io.out).logprobs as number[];
  };

  it('gives the logprobs of the merged model', async () => {
    const withAdapter = await logprobs('--model', 'model', '--lora', 'adapter');
    const merged = await logprobs('--model', 'merged');
    const base = await logprobs('--model', 'model');
    checkTensor('--lora (Python adapter) vs the model Python merged', withAdapter, merged, { abs: 1e-4, rel: 1e-3 });
    expect(Math.max(...withAdapter.map((x, i) => Math.abs(x - base[i])))).toBeGreaterThan(1e-2);
  });
});
