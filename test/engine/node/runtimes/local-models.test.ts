/**
 * Engine workers under the CLI (NodeLocalModels on Dawn): `baton run` over a pool file whose worker names a
 * model directory answers the step with the engine's greedy generation for the worker's chat, at $0, its
 * tokens counted; a directory named twice (relative or absolute) is loaded once; a web-llm worker and a
 * missing directory fail their step with one clear message.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../../../src/core/episodes/index.ts';
import { engineChat } from '../../../../src/engine/index.ts';
import { main } from '../../../../src/node/main.ts';
import { NodeLocalModels } from '../../../../src/node/runtimes/local-models.ts';
import { recordingIo } from '../../../support/cli-io.ts';
import { writeTinyModel } from '../../../support/tiny-model.ts';

const PLAN = 'model_id = [0]\nsubtasks = ["Add 2 and 3."]\naccess_list = [[]]\n';

describe('engine workers in baton run', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-node-local-'));
    await writeTinyModel(join(dir, 'model'), { architecture: 'qwen2', dtype: 'F32', seed: 11, tokenizer: 'small', hidden: 32, heads: 4, kvHeads: 2 });
    await writeFile(join(dir, 'plan.txt'), PLAN);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const run = async (worker: Record<string, unknown>) => {
    await writeFile(join(dir, 'pool.json'), JSON.stringify({ workers: [{ id: 'local', maxTokens: 10, temperature: 0, ...worker }] }));
    const io = recordingIo(dir);
    const code = await main(['run', '--task', 'What is 2 + 3?', '--pool', 'pool.json', '--conductor', 'fixed:plan.txt', '--no-save', '--json'], io);
    return { code, io, episode: JSON.parse(io.out) as Episode };
  };

  it("answers the step with the engine's greedy generation for the worker's messages, at no cost", async () => {
    const { code, io, episode } = await run({ provider: 'engine', model: 'model' });
    expect(code, io.err).toBe(0);
    const [step] = episode.steps;
    const models = new NodeLocalModels(dir);
    try {
      const loaded = await models.open({ modelDir: 'model' });
      const expected = await engineChat(
        { model: loaded.model, tokenizer: loaded.tokenizer! },
        { messages: step.messages, maxTokens: 10, temperature: 0, signal: new AbortController().signal },
      );
      expect(step.output).toBe(expected.text);
      expect(step.usage).toEqual(expected.usage);
      expect(step.usage.output).toBeGreaterThan(0);
      expect(step.costUsd).toBe(0);
      // The same directory, however written, is one load.
      expect((await models.open({ modelDir: join(dir, 'model') })).model).toBe(loaded.model);
    } finally {
      await models.close();
    }
  }, 300_000);

  it('fails the step of a web-llm worker, and of a missing model directory, with one clear message', async () => {
    const webllm = await run({ provider: 'webllm', model: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' });
    expect(webllm.code).toBe(1);
    expect(webllm.episode.steps[0].error?.message).toMatch(
      /web-llm model, which runs in the browser only: under the CLI give it provider "engine" and a model directory/,
    );
    const missing = await run({ provider: 'engine', model: 'no-such-model' });
    expect(missing.code).toBe(1);
    expect(missing.episode.steps[0].error).toMatchObject({ code: 'engine/model-file' });
    expect(missing.episode.steps[0].error?.message).toMatch(/no-such-model/);
  }, 300_000);
});
