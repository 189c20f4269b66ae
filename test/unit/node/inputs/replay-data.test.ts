import { beforeAll, describe, expect, it } from 'vitest';
import { builtInTasks, mmluSubject, readShippedReplay, routellmMmluTaskSet, routingOutcomes, singleWorkerPoints } from '../../../../src/core/bench/index.ts';
import { createReplayWorker } from '../../../../src/core/providers/replay/replay-chat-model.ts';
import { normalizeQuestion, ROUTELLM_MMLU_POOL, type ReplayTable } from '../../../../src/core/providers/replay/index.ts';
import type { Task } from '../../../../src/core/task.ts';
import { NODE_DATA_FILES } from '../../../../src/node/inputs/data-files.ts';
import { readReplayFlags } from '../../../../src/node/inputs/replay-data.ts';
import { readBuiltInTaskSet } from '../../../../src/node/inputs/task-file.ts';
import { recordingIo } from '../../../support/cli-io.ts';

// Reading MMLU and RouteLLM's 58 files takes seconds on a loaded machine: once for the file.
let mmlu: Task[];
let replay: ReplayTable;
beforeAll(async () => {
  [mmlu, replay] = await Promise.all([builtInTasks('mmlu', NODE_DATA_FILES), readShippedReplay(NODE_DATA_FILES)]);
}, 120_000);

describe('the RouteLLM MMLU task set and pool', () => {
  it("keys a question in MMLU's standard prompt as RouteLLM recorded it without the header", () => {
    const q = 'Which is a bone?\nA. Femur\nB. Liver';
    expect(normalizeQuestion(`The following are multiple choice questions about human_aging.\n\n${q}`)).toBe(normalizeQuestion(`${q}\nAnswer:`));
    expect(normalizeQuestion(`The following are multiple choice questions (with answers) about anatomy.\n\n${q}`)).toBe(normalizeQuestion(q));
    expect(normalizeQuestion(`Notes: the following are multiple choice questions about anatomy. ${q}`)).not.toBe(normalizeQuestion(q));
  });

  it('splits every subject 90/10 by the seed, in the standard prompt, the same for the same seed', async () => {
    const [a, b, c] = [3, 3, 4].map((seed) => routellmMmluTaskSet(mmlu, replay, { seed }));
    expect(a.train.length + a.heldOut.length).toBe(14_032);
    expect(a.heldOut.map((t) => t.itemId)).toEqual(b.heldOut.map((t) => t.itemId));
    expect(a.heldOut.map((t) => t.itemId)).not.toEqual(c.heldOut.map((t) => t.itemId));
    const held = new Set(a.heldOut.map((t) => t.itemId));
    expect(a.train.some((t) => held.has(t.itemId))).toBe(false);
    const anatomy = (ts: typeof a.train) => ts.filter((t) => mmluSubject(t) === 'anatomy').length;
    expect(anatomy(a.heldOut)).toBe(Math.round(0.1 * (anatomy(a.train) + anatomy(a.heldOut))));
    expect(new Set(a.heldOut.map(mmluSubject)).size).toBe(57);
    const first = a.heldOut.find((t) => mmluSubject(t) === 'high_school_us_history')!;
    expect(first.question.startsWith('The following are multiple choice questions about high school us history.\n\n')).toBe(true);
  });

  it('replays GPT-4 at 80.6% and Mixtral at 68.1% over all of it, as RouteLLM recorded them', async () => {
    const { train, heldOut } = routellmMmluTaskSet(mmlu, replay, { seed: 0 });
    const pool = ROUTELLM_MMLU_POOL.map((s) => createReplayWorker(s, replay));
    const singles = singleWorkerPoints(await routingOutcomes([...train, ...heldOut], pool, 'Solve the question.', mmluSubject), 0);
    expect(singles.map((p) => Math.round(p.accuracy * 1000) / 10)).toEqual([80.6, 68.1]);
    expect(singles[0].dollarsPerQuestion / singles[1].dollarsPerQuestion).toBeGreaterThan(15);
  });

  it('is what --tasks routellm-mmlu reads, with the shipped records for a pool with replay workers', async () => {
    const io = recordingIo(process.cwd());
    expect(await readReplayFlags(io, [], [{ id: 'a', provider: 'simulated', model: 'a' }])).toBeUndefined();
    expect((await readReplayFlags(io, [], ROUTELLM_MMLU_POOL))!.entries.size).toBe(replay.entries.size);
    expect((await readBuiltInTaskSet('routellm-mmlu', 5)).heldOut).toEqual(routellmMmluTaskSet(mmlu, replay, { seed: 5 }).heldOut);
  }, 120_000);
});
