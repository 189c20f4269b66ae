import { describe, expect, it } from 'vitest';
import { createSimulatedWorker, planSimulatedCall } from '../../../../../src/core/providers/simulated/index.ts';
import type { CallRequest, SimulatedBehaviour, WorkerSpec } from '../../../../../src/core/providers/types.ts';
import type { Task } from '../../../../../src/core/task.ts';

const math: Task = { question: 'What is 40 + 2?', answer: '42', kind: 'number' };
const mcq: Task = { question: 'Pick.\nA. a\nB. b\nC. c\nD. d', answer: 'C', kind: 'mcq', choices: ['a', 'b', 'c', 'd'] };

function spec(simulated: Partial<SimulatedBehaviour>, id = 'sim'): WorkerSpec {
  return { id, provider: 'simulated', model: 'sim', simulated: { skill: { default: 0.5 }, ...simulated } };
}

function request(task: Task, content = 'Solve it.'): CallRequest {
  return { messages: [{ role: 'user', content: `${task.question}\n${content}` }], task };
}

const answerOf = (text: string) => /<answer>(.*)<\/answer>/.exec(text)?.[1];

describe('planSimulatedCall', () => {
  it('is deterministic in its inputs and varies with the seed, worker and context', () => {
    const s = spec({ skill: { default: 0.5 } });
    const a = planSimulatedCall(s, request(math));
    expect(planSimulatedCall(s, request(math))).toEqual(a);
    const variants = Array.from({ length: 40 }, (_, i) => planSimulatedCall(spec({ seed: i }), request(math)).correct);
    expect(new Set(variants)).toEqual(new Set([true, false]));
  });

  it('answers right at its skill for the kind, with the gold in answer tags', () => {
    const sure = planSimulatedCall(spec({ skill: { default: 0, number: 1 } }), request(math));
    expect(answerOf(sure.text)).toBe('42');
    expect(sure.correct).toBe(true);
    const hopeless = planSimulatedCall(spec({ skill: { default: 1, number: 0 } }), request(math));
    expect(hopeless.correct).toBe(false);
  });

  it('gives wrong answers of the right type: a nearby number, another letter', () => {
    for (let seed = 0; seed < 10; seed++) {
      const n = Number(answerOf(planSimulatedCall(spec({ skill: { default: 0 }, seed }), request(math)).text));
      expect(n).not.toBe(42);
      expect(Math.abs(n - 42)).toBeLessThanOrEqual(3);
      expect(answerOf(planSimulatedCall(spec({ skill: { default: 0 }, seed }), request(mcq)).text)).toMatch(/^[ABD]$/);
    }
  });

  it('gives a nudged LaTeX answer for math', () => {
    const task: Task = { question: 'Simplify.', answer: '\\frac{\\pi}{2}', kind: 'math' };
    expect(answerOf(planSimulatedCall(spec({ skill: { default: 0 } }), request(task)).text)).toMatch(/^\\frac\{\\pi\}\{[1345]\}$/);
  });

  it('as a verifier, keeps a right earlier answer with confirmRight and fixes a wrong one with fixWrong', () => {
    const right = request(math, '<Agent 0 response>\n<answer>42</answer>\n</Agent 0 response>\nCheck it.');
    const wrong = request(math, '<Agent 0 response>\n<answer>41</answer>\n</Agent 0 response>\nCheck it.');
    const good = spec({ skill: { default: 0 }, confirmRight: 1, fixWrong: 1 });
    expect(answerOf(planSimulatedCall(good, right).text)).toBe('42');
    expect(answerOf(planSimulatedCall(good, wrong).text)).toBe('42');
    const gullible = spec({ skill: { default: 1 }, confirmRight: 0, fixWrong: 0 });
    expect(answerOf(planSimulatedCall(gullible, wrong).text)).toBe('41'); // misled: repeats the mistake
    expect(answerOf(planSimulatedCall(gullible, right).text)).not.toBe('42'); // talks itself out of it
  });

  it('checks per kind when confirmRight and fixWrong are given per kind', () => {
    const check = (task: Task, earlier: string) => request(task, `<Agent 0 response>\n<answer>${earlier}</answer>\n</Agent 0 response>\nCheck it.`);
    const arithmeticChecker = spec({ skill: { default: 0 }, confirmRight: { default: 0, number: 1 }, fixWrong: { default: 0, number: 1 } });
    expect(answerOf(planSimulatedCall(arithmeticChecker, check(math, '41')).text)).toBe('42');
    expect(answerOf(planSimulatedCall(arithmeticChecker, check(math, '42')).text)).toBe('42');
    expect(answerOf(planSimulatedCall(arithmeticChecker, check(mcq, 'A')).text)).toBe('A'); // default: never fixes
    expect(answerOf(planSimulatedCall(arithmeticChecker, check(mcq, 'C')).text)).not.toBe('C'); // default: never keeps
  });

  it('counts input tokens at ~4 characters each and truncates at maxTokens', () => {
    const s = spec({ skill: { default: 1 }, outputTokens: 100 });
    const req = request(math);
    const plan = planSimulatedCall(s, req);
    expect(plan.usage.input).toBe(Math.ceil(req.messages[0].content.length / 4));
    expect(plan.usage.output).toBeGreaterThanOrEqual(80);
    expect(plan.usage.output).toBeLessThanOrEqual(120);
    const cut = planSimulatedCall(s, { ...req, maxTokens: 10 });
    expect(cut).toMatchObject({ finishReason: 'length', usage: { output: 10 }, correct: false });
    expect(cut.text).not.toContain('<answer>');
  });

  it('says so, and answers nothing, when the task has no gold answer', () => {
    const plan = planSimulatedCall(spec({}), request({ question: 'Write a poem.', kind: 'open' }));
    expect(plan.text).not.toContain('<answer>');
    expect(plan.correct).toBeUndefined();
  });
});

describe('createSimulatedWorker', () => {
  it('returns its plan, streaming the text in pieces', async () => {
    const s = spec({ skill: { default: 1 }, latencyMs: 5 });
    const deltas: string[] = [];
    const result = await createSimulatedWorker(s).call({ ...request(math), onDelta: (t) => deltas.push(t) });
    expect(result.text).toBe(planSimulatedCall(s, request(math)).text);
    expect(deltas.join('')).toBe(result.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(result.attempts).toBe(1);
  });

  it('stops promptly on abort and fails with a timeout shorter than its latency', async () => {
    const worker = createSimulatedWorker(spec({ latencyMs: 60_000 }));
    const controller = new AbortController();
    const pending = worker.call({ ...request(math), signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'run/aborted' });
    await expect(worker.call({ ...request(math), timeoutMs: 1 })).rejects.toMatchObject({ code: 'provider/timeout' });
  });
});
