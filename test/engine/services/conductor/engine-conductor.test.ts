/**
 * The engine Conductor on the shipped demo model (public/demo-conductor) in Node on Dawn:
 * constrained output parses as a workflow for the pool, its token ids and logprobs line up with the
 * text, and an abort stops generation.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWorkflow, buildConductorPrompt } from '../../../../src/core/workflow/index.ts';
import { workflowTokenBound } from '../../../../src/core/workflow/constrain/index.ts';
import { createEngineConductor, type EngineConductorOptions } from '../../../../src/services/conductor/engine-conductor.ts';
import { GpuModel } from '../../../../src/engine/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadTokenizer, type Tokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { useTestDevice } from '../../../support/webgpu.ts';
import { DEMO_POOL, shortExpertsTaskSet } from '../../../../src/core/providers/simulated/index.ts';
import { DEMO_ENGINE_MODEL } from '../../../../src/services/conductor/conductor-choice.ts';
import { engineConductor } from '../../../../src/services/conductor/engine-conductor-settings.ts';
import { DEMO_SEED } from '../../../../src/node/make-demo-conductor.ts';

const DEMO = resolve(import.meta.dirname, '../../../../public/demo-conductor');
// Short prompts and subtasks: SwiftShader decodes slowly.
const FORMAT = { workers: 3, maxSteps: 2, access: 'positional' as const, maxSubtaskChars: 24 };
const MESSAGES = buildConductorPrompt({ question: 'What is 2 + 3?', workers: FORMAT.workers, maxSteps: FORMAT.maxSteps, access: FORMAT.access }).map(
  (m) => (m.role === 'user' ? { ...m, content: 'Plan: what is 2 + 3? Three models.' } : m),
);

describe('createEngineConductor on the demo model', () => {
  const device = useTestDevice();
  let model: GpuModel;
  let tokenizer: Tokenizer;
  const conductor = (over: Partial<EngineConductorOptions> = {}) =>
    createEngineConductor({
      model,
      tokenizer,
      ...FORMAT,
      sampling: { temperature: 1, seed: 7 },
      constrain: true,
      allowReasoning: false,
      maxNewTokens: workflowTokenBound(FORMAT),
      info: { runtime: 'engine', model: 'demo-conductor' },
      ...over,
    });

  beforeAll(async () => {
    const files = filesFromDir(DEMO);
    model = await GpuModel.load(device(), await openModel(files), { weights: 'f32' });
    tokenizer = await loadTokenizer(files);
  });
  afterAll(() => model?.destroy());

  it('writes a workflow that parses, ends on end-of-sequence, and streams exactly its text', async () => {
    for (const seed of [1, 2]) {
      let streamed = '';
      const out = await conductor({ sampling: { temperature: 1, seed } }).generate({ messages: MESSAGES, onDelta: (d) => (streamed += d) });
      const parsed = parseWorkflow(out.text, FORMAT);
      expect(parsed.ok, `${out.text}\n${parsed.ok ? '' : parsed.error}`).toBe(true);
      expect(out.text.startsWith('model_id = [')).toBe(true);
      expect(streamed).toBe(out.text);
      expect(out.tokenIds?.length).toBe(out.logprobs?.length);
      expect([tokenizer.tokenId('<|im_end|>'), tokenizer.tokenId('<|endoftext|>')]).toContain(out.tokenIds?.at(-1));
      expect(tokenizer.decode(out.tokenIds ?? [], { skipSpecialTokens: true })).toBe(out.text);
      for (const lp of out.logprobs ?? []) expect(lp).toBeLessThanOrEqual(0);
    }
  });

  it("records each token's logprob over the whole vocabulary, as the model scores the completion afterwards", async () => {
    const out = await conductor().generate({ messages: MESSAGES });
    const tokens = out.tokenIds ?? [];
    const prompt = tokenizer.encodeChat(MESSAGES, { continueFinal: true });
    const scored = await model.logprobs([...prompt, ...tokens], { temperature: 1 });
    const expected = [...scored.subarray(scored.length - tokens.length)];
    expect(out.logprobs).toHaveLength(tokens.length);
    out.logprobs?.forEach((lp, i) => expect(lp, `token ${i}`).toBeCloseTo(expected[i], 3));
  });

  it('a trained adapter’s own prompt (the Train page’s compact one) replaces the Ask prompt in the first round only', async () => {
    const compact = [{ role: 'user' as const, content: 'Plan at most 2 steps over models 0-2.\nQuestion: What is 2 + 3?' }];
    /** The logprobs the model gives `tokens` after `prompt`: what the Conductor recorded if it sampled after that prompt. */
    const scored = async (prompt: number[], tokens: number[]) => {
      const all = await model.logprobs([...prompt, ...tokens], { temperature: 1 });
      return [...all.subarray(all.length - tokens.length)];
    };
    const first = await conductor({ firstRoundMessages: compact }).generate({ messages: MESSAGES });
    expect(parseWorkflow(first.text, FORMAT).ok).toBe(true);
    const underCompact = await scored(tokenizer.encodeChat(compact, { continueFinal: false }), first.tokenIds ?? []);
    first.logprobs?.forEach((lp, i) => expect(lp, `token ${i}`).toBeCloseTo(underCompact[i], 3));
    // A recursion round (a second user turn) continues the request's own conversation.
    const round2 = [...MESSAGES.slice(0, -1), { role: 'assistant' as const, content: first.text }, { role: 'user' as const, content: 'Round 2.' }, MESSAGES.at(-1)!];
    const second = await conductor({ firstRoundMessages: compact }).generate({ messages: round2 });
    const underRequest = await scored(tokenizer.encodeChat(round2, { continueFinal: true }), second.tokenIds ?? []);
    second.logprobs?.forEach((lp, i) => expect(lp, `token ${i}`).toBeCloseTo(underRequest[i], 3));
  });

  it('the same seed gives the same completion', async () => {
    const a = await conductor().generate({ messages: MESSAGES });
    const b = await conductor().generate({ messages: MESSAGES });
    expect(b.tokenIds).toEqual(a.tokenIds);
  });

  it('stops with run/aborted when the signal fires mid-generation', async () => {
    const controller = new AbortController();
    let deltas = 0;
    const run = conductor().generate({
      messages: MESSAGES,
      signal: controller.signal,
      onDelta: () => {
        if (++deltas === 3) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'run/aborted' });
    expect(deltas).toBe(3);
  });

  it('routes by the kind of question, as it was trained to: sums to the arithmetic expert, multiple choice to the knowledge expert', async () => {
    // Questions held out of its training, run as the app runs the demo model (its trained format, greedy).
    const { heldOut } = shortExpertsTaskSet({ seed: DEMO_SEED });
    const engine = { model, tokenizer, info: { key: 'demo', model: 'demo-conductor', weights: 'f32' as const, vocabSize: model.config.vocabSize, layers: 2, hiddenSize: model.config.hiddenSize } };
    const firstWorkers = async (kind: string) => {
      const firsts: number[] = [];
      for (const [i, task] of heldOut.filter((t) => t.kind === kind).slice(0, 8).entries()) {
        const pool = [...DEMO_POOL];
        const ctx = { workers: pool.length, task, pool, maxSteps: 5, access: 'binary' as const, seed: i };
        const conductor = await engineConductor(engine, DEMO_ENGINE_MODEL, ctx);
        const out = await conductor.generate({ messages: [{ role: 'user', content: 'ignored: the demo runs on its own prompt' }] });
        const parsed = parseWorkflow(out.text, { workers: pool.length, maxSteps: 2 });
        expect(parsed.ok, out.text).toBe(true);
        if (parsed.ok) firsts.push(parsed.workflow.steps[0].worker);
      }
      return firsts;
    };
    const share = (xs: number[], w: number) => xs.filter((x) => x === w).length / xs.length;
    const sums = await firstWorkers('number');
    const choices = await firstWorkers('mcq');
    expect(share(sums, 0) - share(choices, 0), `first workers: sums ${sums}, multiple choice ${choices}`).toBeGreaterThan(0.5);
    expect(share(choices, 1) - share(sums, 1), `first workers: sums ${sums}, multiple choice ${choices}`).toBeGreaterThan(0.5);
  }, 240_000);

  it('without the constraint, the model writes text that is no workflow', async () => {
    const out = await conductor({ constrain: false, maxNewTokens: 12 }).generate({ messages: MESSAGES });
    expect(out.tokenIds).toHaveLength(12);
    expect(parseWorkflow(out.text, FORMAT).ok).toBe(false);
  });
});
