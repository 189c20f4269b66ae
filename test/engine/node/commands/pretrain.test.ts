/**
 * `baton pretrain`: next-token training of a Conductor made by `baton init-model` on the prompts `baton train`
 * would show it, each followed by a plan's opening. Its held-out loss falls, the model it writes gives the training
 * prompts and the opening after them a higher likelihood than the start (checked on the float64 forward of the
 * written weights), it writes a metrics line a step, and wrong flags say what to do. Without the update nothing
 * would rise, and without the opening after each prompt its likelihood would not.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactPrompt, type LanguageModelStepResult } from '../../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs } from '../../../../src/engine/runtime/index.ts';
import { loadTokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { builtInPool, readBuiltInTaskSet } from '../../../../src/node/inputs/index.ts';
import { main } from '../../../../src/node/main.ts';
import { recordingIo } from '../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../support/tiny-model.ts';

const STEPS = 12;
/** The command on the tiny Conductor, the demo pool and the short generated questions. */
const PRETRAIN = ['pretrain', '--model', 'model', '--pool', 'demo', '--tasks', 'experts-short'];

describe('baton pretrain', () => {
  let dir: string;
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    return { code: await main(argv, io), io };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-pretrain-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code, made.io.err).toBe(0);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /**
   * Mean next-token log-likelihood, on the float64 forward of a model directory, of the prompts of the first
   * training questions, and of the plan's opening ('model_id = [') after each.
   */
  async function meanLogLikelihood(modelDir: string): Promise<{ prompts: number; opening: number }> {
    const files = filesFromDir(modelDir);
    const opened = await openModel(files);
    const model = await loadRefModel(opened.tensors, opened.config);
    const tokenizer = await loadTokenizer(files);
    const workers = await builtInPool('demo');
    const tasks = (await readBuiltInTaskSet('experts-short', 3)).train.slice(0, 6);
    const opening = tokenizer.encode('model_id = [');
    const scored = tasks.map((t) =>
      refLogprobs(model, [...tokenizer.encodeChat(compactPrompt(t, workers, { maxSteps: 1, access: 'binary' }), { continueFinal: false }), ...opening]),
    );
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return { prompts: mean(scored.flatMap((lp) => lp.slice(0, -opening.length))), opening: mean(scored.flatMap((lp) => lp.slice(-opening.length))) };
  }

  it('lowers the loss of the prompts baton train will show, on training and held-out questions', async () => {
    const trained = await run(
      ...PRETRAIN,
      ...['--max-steps', '1', '--steps', String(STEPS), '--batch', '6', '--micro-batch', '3', '--lr', '1e-2', '--seed', '3', '--out', 'lm'],
    );
    expect(trained.code, trained.io.err).toBe(0);
    const result = JSON.parse(trained.io.out) as { step: number; stopped: boolean; heldOutBefore: number; heldOutAfter: number; trainPrompts: number };
    expect(result).toMatchObject({ step: STEPS, stopped: false, trainPrompts: 240 });
    expect(result.heldOutAfter).toBeLessThan(0.7 * result.heldOutBefore);
    expect(trained.io.err).toMatch(new RegExp(`step ${STEPS}/${STEPS}  loss \\d`));

    const metrics = (await readFile(join(dir, 'lm', 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LanguageModelStepResult);
    expect(metrics.map((m) => m.step)).toEqual(Array.from({ length: STEPS }, (_, i) => i + 1));
    expect(metrics.at(-1)!.loss).toBeLessThan(metrics[0].loss);

    const before = await meanLogLikelihood(join(dir, 'model'));
    const after = await meanLogLikelihood(join(dir, 'lm', 'model'));
    expect(after.prompts - before.prompts).toBeGreaterThan(1);
    expect(after.opening - before.opening).toBeGreaterThan(1);
  });

  it('says what is missing or does not fit, and writes nothing', async () => {
    const noPool = await run('pretrain', '--model', 'model', '--tasks', 'experts-short', '--out', 'x1');
    expect(noPool.code).toBe(2);
    expect(noPool.io.err).toMatch(/--pool is required/);
    const chars = await run(...PRETRAIN, '--prompt', 'ask', '--question-chars', '20', '--out', 'x2');
    expect(chars.code).toBe(2);
    expect(chars.io.err).toMatch(/--question-chars needs --prompt compact/);
    const into = await run(...PRETRAIN, '--out', 'model');
    expect(into.code).toBe(2);
    expect(into.io.err).toMatch(/input directory/);
    expect(existsSync(join(dir, 'x1')) || existsSync(join(dir, 'x2'))).toBe(false);
  });
});
