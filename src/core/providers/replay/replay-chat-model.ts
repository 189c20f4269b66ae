import { BatonError } from '../../errors/index.ts';
import type { CallRequest, CallResult, WorkerModel, WorkerSpec } from '../types.ts';
import { hashString } from '../../random.ts';
import { choiceLetters, goldLetter } from '../simulated/index.ts';
import { normalizeQuestion, replayColumn, type ReplayTable } from './replay-table.ts';

function unknownQuestion(spec: WorkerSpec, why: string): BatonError {
  return new BatonError({
    code: 'provider/unknown-question',
    message: `Replay worker "${spec.id}" ${why}: replay workers only answer questions from their recorded data set.`,
    data: { worker: spec.id },
  });
}

/**
 * A worker that answers with what a real model answered on the same question, from recorded data. It
 * ignores the subtask and what other agents said: every step it takes on a question gets the same record.
 * Where only correctness was recorded (MMLU), it gives the gold letter or another letter and says so.
 */
export function createReplayWorker(spec: WorkerSpec, table: ReplayTable): WorkerModel {
  const column = replayColumn(table, spec.model);
  return {
    spec,
    supportsPrefill: true,
    async call(req: CallRequest): Promise<CallResult> {
      if (req.signal?.aborted) throw new BatonError({ code: 'run/aborted', message: 'Stopped.' });
      const started = performance.now();
      const task = req.task;
      if (!task) throw unknownQuestion(spec, 'was called without the task');
      const record = table.entries.get(normalizeQuestion(task.question))?.[column];
      if (!record) throw unknownQuestion(spec, `has no record of ${column} on this question`);
      let text: string;
      if (record.response !== undefined) {
        text = record.response;
      } else {
        const gold = goldLetter(task);
        if (!gold) throw unknownQuestion(spec, 'needs the gold letter of this multiple-choice task to replay a correctness record');
        const others = choiceLetters(task).filter((l) => l !== gold);
        const letter = record.correct ? gold : others[hashString(`${column}\u0000${task.question}`) % others.length];
        text = `Replayed record: ${column} answered this question ${record.correct ? 'correctly' : 'incorrectly'} (only correctness was recorded).\n<answer>${letter}</answer>`;
      }
      req.onDelta?.(text);
      const chars = req.messages.reduce((n, m) => n + m.content.length, 0);
      return {
        text,
        usage: record.usage ?? { input: Math.ceil(chars / 4), output: Math.ceil(text.length / 4) },
        latencyMs: performance.now() - started,
        attempts: 1,
        finishReason: 'stop',
      };
    },
  };
}
