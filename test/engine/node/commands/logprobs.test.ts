/** `baton logprobs` in-process on tiny models, against the float64 reference. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel, readPeftAdapter } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs, type RefModel } from '../../../../src/engine/runtime/index.ts';
import { loadTokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { main } from '../../../../src/node/main.ts';
import { checkTensor } from '../../../support/check-tensor.ts';
import { writeRandomAdapter, writeTinyModel } from '../../../support/tiny-model.ts';
import { int4TensorNames, roundTripped } from '../../quant/round-tripped-model.ts';
import { recordingIo } from '../../../support/cli-io.ts';

const IDS = [12, 250, 3, 64, 9];

describe('baton logprobs', () => {
  let dir: string;
  let ref: RefModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-cli-logprobs-'));
    const tiny = await writeTinyModel(join(dir, 'model'), { architecture: 'llama', dtype: 'BF16', seed: 4, vocab: 256 });
    await writeRandomAdapter(join(dir, 'lora'), { model: tiny.config, r: 2, alpha: 4, targetModules: ['v_proj', 'down_proj'], seed: 8 });
    await writeFile(join(dir, 'ids.json'), JSON.stringify(IDS));
    await writeFile(join(dir, 'ids.txt'), IDS.join(' \n'));
    const opened = await openModel(filesFromDir(join(dir, 'model')));
    ref = await loadRefModel(opened.tensors, opened.config);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('prints the tokens and log p(ids[i+1] | ids[..i]) for an ids file, with and without LoRA', async () => {
    const io = recordingIo(dir);
    expect(await main(['logprobs', '--model', 'model', '--ids', 'ids.json'], io)).toBe(0);
    const base = JSON.parse(io.out);
    expect(base.tokens).toEqual(IDS);
    checkTensor('cli logprobs', base.logprobs, refLogprobs(ref, IDS), { abs: 1e-4, rel: 1e-3 });

    const lora = await readPeftAdapter(filesFromDir(join(dir, 'lora')));
    const io2 = recordingIo(dir);
    expect(await main(['logprobs', '--model', 'model', '--lora', 'lora', '--ids', 'ids.txt'], io2)).toBe(0);
    checkTensor('cli logprobs (LoRA)', JSON.parse(io2.out).logprobs, refLogprobs(ref, IDS, { lora }), { abs: 1e-4, rel: 1e-3 });
  });

  it('scores with int4 weights as the reference does on the weights int4 reads back', async () => {
    const io = recordingIo(dir);
    expect(await main(['logprobs', '--model', 'model', '--ids', 'ids.json', '--weights', 'int4'], io)).toBe(0);
    const quantRef = roundTripped(ref, int4TensorNames(ref, true));
    checkTensor('cli int4 logprobs', JSON.parse(io.out).logprobs, refLogprobs(quantRef, IDS), { abs: 1e-4, rel: 1e-3 });
  });

  it('reads ids from stdin with --ids -', async () => {
    const io = recordingIo(dir, IDS.join(' '));
    expect(await main(['logprobs', '--model', 'model', '--ids', '-'], io)).toBe(0);
    expect(JSON.parse(io.out).tokens).toEqual(IDS);
  });

  it('says plainly what is not supported or wrong', async () => {
    const cases: [string[], number, RegExp][] = [
      [['--model', 'model', '--ids', 'ids.json', '--weights', 'int8'], 2, /--weights must be f32, f16 or int4/],
      [['--model', 'model'], 2, /exactly one of --ids FILE and --text TEXT/],
      [['--model', 'model', '--ids', 'model/config.json'], 2, /token ids must be non-negative integers/],
    ];
    for (const [args, status, message] of cases) {
      const io = recordingIo(dir);
      expect(await main(['logprobs', ...args], io)).toBe(status);
      expect(io.err).toMatch(message);
    }
  });

  it('tokenises --text with the model tokenizer (real Qwen vocabulary)', async () => {
    const full = join(dir, 'full');
    await writeTinyModel(full, { architecture: 'qwen2', dtype: 'BF16', seed: 6, layers: 1 });
    const text = 'Hello world';
    const expected = (await loadTokenizer(filesFromDir(full))).encode(text);
    const io = recordingIo(dir);
    expect(await main(['logprobs', '--model', 'full', '--text', text], io)).toBe(0);
    const out = JSON.parse(io.out);
    expect(out.tokens).toEqual(expected);
    expect(out.logprobs).toHaveLength(expected.length - 1);
    expect(out.logprobs.every((lp: number) => lp < 0 && lp > -30)).toBe(true);
  });
});
