/**
 * The engine Conductor (the tab's and Node's) on the shipped demo model (public/demo-conductor) in Node on Dawn: with a
 * trained format (the demo's conductor.json, or a Train page adapter's) it runs as it was trained,
 * greedily, on its own prompt, and its plan parses; its streamed text, token ids and logprobs line up;
 * a model without one samples from the run's seed; an abort stops generation.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/core/providers/index.ts';
import { DEMO_POOL } from '../../../../src/core/providers/simulated/index.ts';
import { compactPrompt, readTrainedFormat, type TrainedFormat } from '../../../../src/core/rl/index.ts';
import { buildConductorPrompt, parseWorkflow } from '../../../../src/core/workflow/index.ts';
import { EnginePolicy, GpuModel } from '../../../../src/engine/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadTokenizer, type Tokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { DEMO_SEED } from '../../../../bench/make-demo-conductor.ts';
import { shortExpertsTaskSet } from '../../../../src/core/bench/index.ts';
import {
  DEMO_ENGINE_MODEL,
  engineConductor,
  type EngineModelChoice,
  type EngineRunContext,
  type LoadedConductorModel,
} from '../../../../src/core/conductor/index.ts';
import { useTestDevice } from '../../../support/webgpu.ts';

const DEMO = resolve(import.meta.dirname, '../../../../public/demo-conductor');
const { heldOut } = shortExpertsTaskSet({ seed: DEMO_SEED });
const POOL = [...DEMO_POOL];
const SUM = heldOut.find((t) => t.kind === 'number')!;
/** What the Ask path sends: the Ask prompt ending in its prefill, its question cut short (SwiftShader reads slowly). */
const ASK: ChatMessage[] = buildConductorPrompt({ question: SUM.question, workers: POOL, maxSteps: 2, access: 'binary' }).map((m) =>
  m.role === 'user' ? { ...m, content: `Plan: ${SUM.question} Three models.` } : m,
);
/** A Train page adapter's format: the compact prompt, two steps of short free subtasks. */
const TRAIN_PAGE: TrainedFormat = { prompt: 'compact', constrain: true, maxSteps: 2, maxSubtaskChars: 12 };

describe("the app's engine Conductor on the demo model", () => {
  const device = useTestDevice();
  let model: GpuModel;
  let tokenizer: Tokenizer;
  let demoFormat: TrainedFormat | undefined;
  const engine = (format: TrainedFormat | undefined): LoadedConductorModel => ({
    policy: new EnginePolicy(model, tokenizer),
    tokenizer,
    vocabSize: model.config.vocabSize,
    model: 'demo-conductor',
    ...(format ? { format } : {}),
  });
  const ctx = (over: Partial<EngineRunContext> = {}): EngineRunContext => ({
    workers: POOL.length,
    task: SUM,
    pool: POOL,
    maxSteps: 5,
    access: 'binary',
    seed: 3,
    ...over,
  });
  /** The logprobs the model gives `tokens` after `messages`: what the Conductor records if it sampled after that prompt. */
  const scored = async (messages: ChatMessage[], tokens: number[]) => {
    const prompt = tokenizer.encodeChat(messages, { continueFinal: messages.at(-1)?.role === 'assistant' });
    const all = await model.logprobs([...prompt, ...tokens], { temperature: 1 });
    return [...all.subarray(all.length - tokens.length)];
  };

  beforeAll(async () => {
    const files = filesFromDir(DEMO);
    model = await GpuModel.load(device(), await openModel(files), { weights: 'f32' });
    tokenizer = await loadTokenizer(files);
    demoFormat = await readTrainedFormat([files]);
  });
  afterAll(() => model?.destroy());

  it('runs the demo as its conductor.json says: its own prompt, greedy, a plan that parses, streamed exactly, scored as the model scores it', async () => {
    expect(demoFormat).toMatchObject({ prompt: 'compact', constrain: true, fixedSubtasks: true });
    const conductor = engineConductor(engine(demoFormat), DEMO_ENGINE_MODEL, ctx());
    let streamed = '';
    const out = await conductor.generate({ messages: ASK, onDelta: (d) => (streamed += d) });
    expect(conductor.info.sampling).toMatchObject({ temperature: 0, seed: 3 });
    const parsed = parseWorkflow(out.text, { workers: POOL.length, maxSteps: demoFormat!.maxSteps });
    expect(parsed.ok, out.text).toBe(true);
    expect(streamed).toBe(out.text);
    expect(out.prompt).toEqual(compactPrompt(SUM, POOL, { maxSteps: demoFormat!.maxSteps, access: 'binary' }));
    expect([tokenizer.tokenId('<|im_end|>'), tokenizer.tokenId('<|endoftext|>')]).toContain(out.tokenIds?.at(-1));
    const expected = await scored(out.prompt!, out.tokenIds!);
    expect(out.logprobs).toHaveLength(out.tokenIds!.length);
    out.logprobs?.forEach((lp, i) => expect(lp, `token ${i}`).toBeCloseTo(expected[i], 3));
    // Greedy: the same plan whatever the seed.
    const again = await engineConductor(engine(demoFormat), DEMO_ENGINE_MODEL, ctx({ seed: 99 })).generate({ messages: ASK });
    expect(again.tokenIds).toEqual(out.tokenIds);
  });

  it("runs a Train page adapter's format: free subtasks within its length, at most its steps; a recursion round continues the request", async () => {
    const conductor = engineConductor(engine(TRAIN_PAGE), { ...DEMO_ENGINE_MODEL, adapter: { from: 'trained', name: 'a' } }, ctx());
    const first = await conductor.generate({ messages: ASK });
    const parsed = parseWorkflow(first.text, { workers: POOL.length, maxSteps: TRAIN_PAGE.maxSteps });
    expect(parsed.ok, first.text).toBe(true);
    if (parsed.ok) for (const step of parsed.workflow.steps) expect(step.subtask.length, first.text).toBeLessThanOrEqual(12);
    expect(first.prompt).toEqual(compactPrompt(SUM, POOL, { maxSteps: 2, access: 'binary' }));
    // A second user turn is a recursion round: the request's own conversation, not the first round's prompt.
    const round2: ChatMessage[] = [...ASK.slice(0, -1), { role: 'assistant', content: first.text }, { role: 'user', content: 'Round 2.' }, ASK.at(-1)!];
    const second = await conductor.generate({ messages: round2 });
    expect(second.prompt).toBeUndefined();
    const underRequest = await scored(round2, second.tokenIds!);
    second.logprobs?.forEach((lp, i) => expect(lp, `token ${i}`).toBeCloseTo(underRequest[i], 3));
  });

  it('routes by the kind of question, as it was trained to: sums to the arithmetic expert, multiple choice to the knowledge expert', async () => {
    const firstWorkers = async (kind: string) => {
      const firsts: number[] = [];
      for (const [i, task] of heldOut
        .filter((t) => t.kind === kind)
        .slice(0, 8)
        .entries()) {
        const conductor = engineConductor(engine(demoFormat), DEMO_ENGINE_MODEL, ctx({ task, seed: i }));
        const out = await conductor.generate({ messages: [{ role: 'user', content: 'ignored: the demo runs on its own prompt' }] });
        const parsed = parseWorkflow(out.text, { workers: POOL.length, maxSteps: 2 });
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

  it('samples a model without a trained format from the run seed on the Ask prompt, and stops with run/aborted when the signal fires', async () => {
    const plain: EngineModelChoice = { source: { from: 'url', url: 'http://127.0.0.1/m/' }, weights: 'f32', reasoning: false };
    /** The text streamed before the abort after 6 pieces. */
    const firstPieces = async (seed: number) => {
      const conductor = engineConductor(engine(undefined), plain, ctx({ seed }));
      expect(conductor.info.sampling).toMatchObject({ temperature: 1, seed });
      const controller = new AbortController();
      let text = '';
      let pieces = 0;
      const run = conductor.generate({
        messages: ASK,
        signal: controller.signal,
        onDelta: (d) => {
          text += d;
          if (++pieces === 6) controller.abort();
        },
      });
      await expect(run).rejects.toMatchObject({ code: 'run/aborted' });
      expect(pieces).toBe(6);
      return text;
    };
    const a = await firstPieces(1);
    // The lists alone: the text starts as every plan does.
    expect(a.startsWith('model_id = [') || 'model_id = ['.startsWith(a), a).toBe(true);
    expect(await firstPieces(1)).toBe(a);
  });
});
