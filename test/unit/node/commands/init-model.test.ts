import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs } from '../../../../src/engine/runtime/index.ts';
import { loadTokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { initModelCommand } from '../../../../src/node/commands/init-model.ts';
import { recordingIo } from '../../../support/cli-io.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-init-model-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `d${n++}`);

async function run(...argv: string[]) {
  const io = recordingIo(root);
  const code = await initModelCommand(argv, io);
  return { code, io };
}

describe('baton init-model', () => {
  it.each(['qwen2', 'qwen3', 'llama'])('writes a %s model directory the engine opens, with a shrunken tokenizer that encodes any text', async (arch) => {
    const out = fresh();
    const { code, io } = await run(
      '--out',
      out,
      '--arch',
      arch,
      '--hidden',
      '16',
      '--layers',
      '2',
      '--heads',
      '2',
      '--kv-heads',
      '1',
      '--vocab',
      '300',
      '--dtype',
      'f32',
      '--seed',
      '4',
    );
    expect(code).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ architecture: arch, hidden: 16, vocab: 300, seed: 4 });
    const files = filesFromDir(out);
    const opened = await openModel(files);
    expect(opened.config).toMatchObject({ architecture: arch, hiddenSize: 16, numLayers: 2, numHeads: 2, numKvHeads: 1, vocabSize: 300, intermediateSize: 32 });
    const tokenizer = await loadTokenizer(files);
    const text = 'model_id = [0, 3]';
    const ids = tokenizer.encode(text);
    expect(Math.max(...ids)).toBeLessThan(300);
    expect(tokenizer.decode(ids)).toBe(text);
    const chat = tokenizer.encodeChat([{ role: 'user', content: 'Hi' }], { continueFinal: false });
    const ref = await loadRefModel(opened.tensors, opened.config);
    const lp = refLogprobs(ref, chat);
    expect(lp.every((x) => Number.isFinite(x) && x < 0)).toBe(true);
  });

  it('gives the same bytes for the same seed and other weights for another', async () => {
    const weights = async (seed: string) => {
      const out = fresh();
      await run('--out', out, '--hidden', '16', '--heads', '2', '--kv-heads', '1', '--vocab', '300', '--seed', seed);
      return readFile(join(out, 'model.safetensors'));
    };
    const [a, b, c] = [await weights('1'), await weights('1'), await weights('2')];
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it('keeps only merges whose halves and result are tokens of the cut vocabulary, as Hugging Face tokenizers require', async () => {
    // Qwen's merge "to" + "String" falls inside 1,536 ids; "toString" itself does not (but Object.prototype has it).
    const out = fresh();
    await run('--out', out, '--hidden', '16', '--heads', '2', '--kv-heads', '1', '--vocab', '1536', '--seed', '1');
    const { model } = JSON.parse(await readFile(join(out, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number>; merges: string[][] } };
    expect(model.merges.length).toBeGreaterThan(1000);
    const unknown = model.merges.filter(([a, b]) => ![a, b, a + b].every((t) => Object.hasOwn(model.vocab, t)));
    expect(unknown).toEqual([]);
  });

  it('refuses shapes the engine cannot run', async () => {
    for (const bad of [
      ['--arch', 'gpt2'],
      ['--hidden', '18', '--heads', '4'],
      ['--heads', '4', '--kv-heads', '3'],
      ['--vocab', '100'],
      ['--dtype', 'f16'],
    ]) {
      const { code } = await run('--out', fresh(), ...bad).catch((e) => ({ code: e.exitCode as number }));
      expect(code, bad.join(' ')).toBe(2);
    }
  });
});
