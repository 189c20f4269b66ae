/**
 * Coming back from TRL or verl: a LoRA adapter written by an independent writer (test/support/peft-python-writer.ts:
 * Python's standard library, PEFT's layout) loads with readPeftAdapter, and the reference forward with it
 * scores tokens as it scores the model Python merged the adapter into.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel, readPeftAdapter } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs } from '../../../../src/engine/runtime/index.ts';
import { checkTensor } from '../../../support/check-tensor.ts';
import { HAS_PYTHON, PYTHON_ADAPTER, writeAdapterWithPython } from '../../../support/peft-python-writer.ts';
import { writeTinyModel } from '../../../support/tiny-model.ts';

const IDS = [7, 201, 33, 90, 4, 150];

describe.skipIf(!HAS_PYTHON)(`a PEFT adapter written by an independent (Python) writer${HAS_PYTHON ? '' : ' (skipped: no python3 on this machine)'}`, () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-peft-python-'));
    await writeTinyModel(join(dir, 'model'), { architecture: 'qwen2', dtype: 'F32', seed: 5, vocab: 256, hidden: 32, tokenizer: 'none' });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('loads with readPeftAdapter and scores as the model Python merged it into', async () => {
    expect(await writeAdapterWithPython(dir)).toBe(6);

    const base = await openModel(filesFromDir(join(dir, 'model')));
    const adapter = await readPeftAdapter(filesFromDir(join(dir, 'adapter')), base.config);
    expect(adapter.config).toMatchObject({ r: PYTHON_ADAPTER.r, alpha: PYTHON_ADAPTER.alpha, baseModel: PYTHON_ADAPTER.baseModel });
    expect([...adapter.weights.keys()].sort()).toEqual(
      [0, 1].flatMap((l) => [`model.layers.${l}.mlp.down_proj`, `model.layers.${l}.self_attn.q_proj`, `model.layers.${l}.self_attn.v_proj`]).sort(),
    );

    const merged = await openModel(filesFromDir(join(dir, 'merged')));
    const withAdapter = refLogprobs(await loadRefModel(base.tensors, base.config), IDS, { lora: adapter });
    const pythonMerged = refLogprobs(await loadRefModel(merged.tensors, merged.config), IDS);
    const plain = refLogprobs(await loadRefModel(base.tensors, base.config), IDS);
    checkTensor('LoRA as Baton reads it vs merged by Python', withAdapter, pythonMerged, { abs: 1e-5, rel: 1e-4 });
    // The adapter moves the scores well beyond that tolerance, so the match is not a no-op.
    expect(Math.max(...withAdapter.map((x, i) => Math.abs(x - plain[i])))).toBeGreaterThan(1e-2);
  });
});
