import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  compactPrompt,
  describeTrainedFormat,
  parseTrainedFormat,
  readTrainedFormat,
  trainedFormatJson,
  trainedPrompt,
  trainedWorkflowFormat,
  type TrainedFormat,
} from '../../../../src/core/rl/index.ts';
import { FIXED_SUBTASKS } from '../../../../src/core/workflow/constrain/index.ts';
import { TRAINING } from '../../../../bench/make-demo-conductor.ts';

describe("a Conductor's trained format (conductor.json)", () => {
  it('round-trips, and gives the prompt and the constraint it was trained under', () => {
    const f: TrainedFormat = { prompt: 'compact', constrain: true, maxSteps: 2, fixedSubtasks: true, maxSubtaskChars: 12 };
    expect(parseTrainedFormat(trainedFormatJson(f), 'c.json')).toEqual(f);
    expect(trainedPrompt(f)).toBe(compactPrompt);
    expect(trainedWorkflowFormat(f, 3, true)).toEqual({
      workers: 3,
      maxSteps: 2,
      access: 'binary',
      allowReasoning: false,
      recursion: true,
      maxSubtaskChars: 12,
      fixedSubtasks: FIXED_SUBTASKS,
    });
    expect(trainedWorkflowFormat({ prompt: 'ask', constrain: true, maxSteps: 5 }, 4)).toEqual({
      workers: 4,
      maxSteps: 5,
      access: 'binary',
      allowReasoning: false,
      recursion: false,
    });
  });

  it('cuts the question the compact prompt reads to questionChars, and keeps it through conductor.json', () => {
    const f: TrainedFormat = { prompt: 'compact', constrain: true, maxSteps: 1, questionChars: 12 };
    expect(parseTrainedFormat(trainedFormatJson(f), 'c.json')).toEqual(f);
    const task = { question: 'What is 12 + 30, exactly?', kind: 'number' as const };
    const [message] = trainedPrompt(f)(task, [], { maxSteps: 1, access: 'binary' });
    expect(message.content).toMatch(/\nQuestion: What is 12 \+$/);
    expect(describeTrainedFormat(f)).toMatch(/reading 12 characters of the question/);
    expect(() => parseTrainedFormat('{"prompt":"compact","constrain":true,"maxSteps":1,"questionChars":0}', 'c')).toThrow(/"questionChars" must be/);
  });

  it('keeps jump-forward decoding through conductor.json and into the constraint; a Conductor trained before it has none', () => {
    const f: TrainedFormat = { prompt: 'compact', constrain: true, maxSteps: 1, fixedSubtasks: true, jumpForward: true };
    expect(parseTrainedFormat(trainedFormatJson(f), 'c.json')).toEqual(f);
    expect(trainedWorkflowFormat(f, 4).jumpForward).toBe(true);
    expect(trainedWorkflowFormat({ prompt: 'compact', constrain: true, maxSteps: 1 }, 4).jumpForward).toBeUndefined();
    expect(() => parseTrainedFormat('{"prompt":"compact","constrain":true,"maxSteps":1,"jumpForward":1}', 'c')).toThrow(/"jumpForward" must be/);
  });

  it('names the file and the field that is wrong', () => {
    expect(() => parseTrainedFormat('{', 'm/conductor.json')).toThrow(/^m\/conductor\.json: not JSON/);
    expect(() => parseTrainedFormat('{"prompt":"long","constrain":true,"maxSteps":1}', 'c')).toThrow(/"prompt" must be "ask" or "compact", got "long"/);
    expect(() => parseTrainedFormat('{"prompt":"ask","constrain":"yes","maxSteps":1}', 'c')).toThrow(/"constrain" must be true or false/);
    expect(() => parseTrainedFormat('{"prompt":"ask","constrain":true,"maxSteps":0}', 'c')).toThrow(/"maxSteps" must be a whole number/);
  });

  it("is read from an adapter's files before its model's, and a model without one has none", async () => {
    const files = (name: string, entries: Record<string, string>) => ({
      name,
      size: async (path: string) => entries[path]?.length,
      read: async (path: string) => new TextEncoder().encode(entries[path]),
    });
    const model = files('model', { 'conductor.json': trainedFormatJson({ prompt: 'ask', constrain: false, maxSteps: 5 }) });
    const adapter = files('adapter', { 'conductor.json': trainedFormatJson({ prompt: 'compact', constrain: true, maxSteps: 2 }) });
    expect(await readTrainedFormat([adapter, model])).toEqual({ prompt: 'compact', constrain: true, maxSteps: 2 });
    expect(await readTrainedFormat([undefined, model])).toEqual({ prompt: 'ask', constrain: false, maxSteps: 5 });
    expect(await readTrainedFormat([files('adapter', {}), model])).toEqual({ prompt: 'ask', constrain: false, maxSteps: 5 });
    expect(await readTrainedFormat([files('plain', { 'config.json': '{}' })])).toBeUndefined();
    await expect(readTrainedFormat([files('broken', { 'conductor.json': '{"prompt":"ask"' })])).rejects.toThrow(/^conductor\.json in broken: not JSON/);
  });

  it('says in words how it makes the Conductor run', () => {
    expect(describeTrainedFormat({ prompt: 'compact', constrain: true, maxSteps: 1, fixedSubtasks: true })).toBe(
      'the short prompt, the lists alone, plans of at most 1 step, fixed subtask texts',
    );
    expect(describeTrainedFormat({ prompt: 'compact', constrain: true, maxSteps: 2, maxSubtaskChars: 6 })).toBe(
      'the short prompt, the lists alone, plans of at most 2 steps, subtasks of up to 6 characters',
    );
    expect(describeTrainedFormat({ prompt: 'ask', constrain: false, maxSteps: 5 })).toBe('the Ask prompt, plans of at most 5 steps');
  });

  it('is, for the shipped demo Conductor, the format make-demo-conductor trains it in', async () => {
    const shipped = parseTrainedFormat(await readFile('public/demo-conductor/conductor.json', 'utf8'), 'demo');
    expect(shipped).toEqual({ prompt: 'compact', constrain: true, maxSteps: TRAINING.maxSteps, fixedSubtasks: true });
  });
});
