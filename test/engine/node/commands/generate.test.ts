/** `baton generate` in-process on a tiny model with the real Qwen tokenizer, against the float64 reference. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWorkflow } from '../../../../src/core/workflow/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refForward, type RefModel } from '../../../../src/engine/runtime/index.ts';
import { logSoftmaxRef } from '../../../../src/engine/kernels/index.ts';
import { createWorkflowConstraint, tokenVocabOf } from '../../../../src/core/workflow/constrain/index.ts';
import { loadTokenizer, type Tokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { main } from '../../../../src/node/main.ts';
import { writeTinyModel } from '../../../support/tiny-model.ts';
import { int4TensorNames, roundTripped } from '../../quant/round-tripped-model.ts';
import { recordingIo } from '../../../support/cli-io.ts';

describe('baton generate', () => {
  let dir: string;
  let ref: RefModel;
  let tokenizer: Tokenizer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-cli-generate-'));
    await writeTinyModel(join(dir, 'model'), { architecture: 'qwen3', dtype: 'BF16', seed: 12, layers: 1 });
    await writeFile(join(dir, 'messages.json'), JSON.stringify([{ role: 'user', content: 'Hi' }]));
    const files = filesFromDir(join(dir, 'model'));
    const opened = await openModel(files);
    ref = await loadRefModel(opened.tensors, opened.config);
    tokenizer = await loadTokenizer(files);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('continues a chat prompt greedily as the reference does, with each token logprob', async () => {
    const steps = 3;
    const V = ref.config.vocabSize;
    const ids = tokenizer.encodeChat([{ role: 'user', content: 'Hi' }], { continueFinal: false });
    const chain: number[] = [];
    const logprobs: number[] = [];
    for (let i = 0; i < steps; i++) {
      const last = refForward(ref, ids).subarray((ids.length - 1) * V);
      let best = 0;
      for (let v = 1; v < V; v++) if (last[v] > last[best]) best = v;
      chain.push(best);
      logprobs.push(logSoftmaxRef(last, 1, V)[best]);
      ids.push(best);
    }

    const io = recordingIo(dir);
    expect(await main(['generate', '--model', 'model', '--prompt', 'Hi', '--max-new-tokens', String(steps), '--json'], io)).toBe(0);
    const out = JSON.parse(io.out);
    expect(out.tokens).toEqual(chain);
    expect(out.logprobs).toHaveLength(steps);
    out.logprobs.forEach((lp: number, i: number) => expect(lp).toBeCloseTo(logprobs[i], 3));
    expect(out.text).toBe(tokenizer.decode(chain, { skipSpecialTokens: true }));
    expect(out.finishReason).toBe('length');

    const fromFile = recordingIo(dir);
    expect(await main(['generate', '--model', 'model', '--messages', 'messages.json', '--max-new-tokens', String(steps)], fromFile)).toBe(0);
    expect(fromFile.out).toBe(`${out.text}\n`);
  });

  it('decodes with int4 weights the greedy chain of the reference on the weights int4 reads back', async () => {
    const steps = 3;
    const V = ref.config.vocabSize;
    const quantRef = roundTripped(ref, int4TensorNames(ref, true));
    const ids = tokenizer.encodeChat([{ role: 'user', content: 'Hi' }], { continueFinal: false });
    const chain: number[] = [];
    for (let i = 0; i < steps; i++) {
      const last = refForward(quantRef, ids).subarray((ids.length - 1) * V);
      let best = 0;
      for (let v = 1; v < V; v++) if (last[v] > last[best]) best = v;
      chain.push(best);
      ids.push(best);
    }
    const io = recordingIo(dir);
    expect(await main(['generate', '--model', 'model', '--prompt', 'Hi', '--max-new-tokens', String(steps), '--weights', 'int4', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out).tokens).toEqual(chain);
  });

  it('samples with a seed: --n gives distinct samples, the same seed the same ones', async () => {
    const args = [
      'generate',
      '--model',
      'model',
      '--prompt',
      'Hi',
      '--max-new-tokens',
      '4',
      '--temperature',
      '1.5',
      '--top-k',
      '50',
      '--seed',
      '4',
      '--n',
      '2',
      '--json',
    ];
    const first = recordingIo(dir);
    const again = recordingIo(dir);
    expect(await main(args, first)).toBe(0);
    expect(await main(args, again)).toBe(0);
    expect(again.out).toBe(first.out);
    const samples = first.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(samples.map((s) => s.index)).toEqual([0, 1]);
    expect(samples[0].tokens).not.toEqual(samples[1].tokens);
    for (const s of samples) expect(s.logprobs.every((lp: number) => lp < 0)).toBe(true);
  });

  it('samples only valid, complete workflow text with --constrain workflow', async () => {
    await writeTinyModel(join(dir, 'small'), { architecture: 'qwen3', dtype: 'F32', seed: 14, layers: 1, tokenizer: 'small' });
    const io = recordingIo(dir);
    // A budget the constraint can finish a workflow in (it steers to the shortest end when short).
    const args = ['--model', 'small', '--prompt', 'Hi', '--max-new-tokens', '60', '--temperature', '1', '--seed', '2', '--n', '2', '--json'];
    expect(await main(['generate', ...args, '--constrain', 'workflow', '--workers', '2', '--max-steps', '2'], io)).toBe(0);
    const small = await loadTokenizer(filesFromDir(join(dir, 'small')));
    const constraint = createWorkflowConstraint({ ...tokenVocabOf(small, 1024), workers: 2, maxSteps: 2 });
    const samples = io.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { text: string; tokens: number[]; finishReason: string });
    expect(samples).toHaveLength(2);
    for (const { text, tokens, finishReason } of samples) {
      let state = constraint.start();
      for (const id of tokens) state = constraint.advance(state, id); // throws on a token the format forbids
      expect(finishReason).toBe('stop');
      expect(constraint.isFinished(state)).toBe(true);
      expect(parseWorkflow(text, { workers: 2, maxSteps: 2 })).toMatchObject({ ok: true });
    }
  });

  it('rejects unsupported or wrong flags, saying so', async () => {
    const cases: [string[], RegExp][] = [
      [['--model', 'model', '--prompt', 'Hi', '--constrain', 'json'], /--constrain must be "workflow"/],
      [['--model', 'model', '--prompt', 'Hi', '--constrain', 'workflow'], /--constrain workflow needs --workers N/],
      [['--model', 'model', '--prompt', 'Hi', '--workers', '3'], /apply to --constrain workflow only/],
      [['--model', 'model', '--prompt', 'Hi', '--weights', 'int8'], /--weights must be f32, f16 or int4/],
      [['--model', 'model'], /exactly one of --prompt TEXT and --messages FILE/],
      [['--model', 'model', '--prompt', 'Hi', '--top-p', '0'], /--top-p must be in \(0, 1\]/],
    ];
    for (const [args, message] of cases) {
      const io = recordingIo(dir);
      expect(await main(['generate', ...args], io)).toBe(2);
      expect(io.err).toMatch(message);
    }
  });
});
