/**
 * An evaluation on a recorded pool's held-out questions, as `baton eval --dataset routerbench --method
 * hindsight:...` runs it: the best worker per kind with hindsight at each lambda, and every method placed
 * against the single workers' hull, in the report, its Markdown and its plot.
 */
import { describe, expect, it } from 'vitest';
import {
  buildMethods,
  builtInTaskSet,
  buildReport,
  fromSingles,
  readRecordedModels,
  readRecordedSets,
  readShippedReplay,
  reportMarkdown,
  reportPlotSvg,
  runEvaluation,
} from '../../../../../src/core/bench/index.ts';
import { recordedPool } from '../../../../../src/core/providers/replay/index.ts';
import { createReplayWorker } from '../../../../../src/core/providers/replay/replay-chat-model.ts';
import { recordedDataFiles } from '../../../../support/recorded-data.ts';

describe('hindsight rows on a recorded pool', () => {
  it('send each kind to the worker of the highest correct - lambda x dollars, and are placed against the single hull', async () => {
    const files = recordedDataFiles(10);
    const specs = recordedPool(
      'routerbench',
      await readRecordedModels(files, 'routerbench'),
      (await readRecordedSets(files, 'routerbench')).flatMap((s) => s.questions),
    );
    const table = await readShippedReplay(
      files,
      specs.map((s) => s.model),
    );
    const pool = specs.map((s) => createReplayWorker(s, table));
    const { heldOut } = await builtInTaskSet('routerbench', files, { seed: 0 });
    const conductorHost = () => {
      throw new Error('no Conductor here');
    };
    const built = await buildMethods(['hindsight:0,1000000', 'oracle'], { workers: specs, maxSteps: 1, naming: 'dir', conductorHost });
    expect(built.added).toEqual(['single:dear-1', 'single:mid-2', 'single:cheap-3']);
    const result = await runEvaluation({ id: 'h', items: heldOut, methods: built.methods, repeats: 1, concurrency: 2, pool: () => pool, seed: 0 });
    const report = buildReport(result.episodes, { evalId: 'h', methods: built.methods.map((m) => m.name), ...fromSingles(built, specs) });
    const row = (m: string) => report.methods.find((r) => r.method === m)!;

    // dear is right on all, mid on sums only, cheap on multiple choice only; prices 10/30, 1/2, 0.1/0.1 per M tokens.
    expect([row('single:dear-1').accuracy, row('single:mid-2').accuracy, row('single:cheap-3').accuracy]).toEqual([1, 0.5, 0.5]);
    // At lambda 0 every kind goes to the cheapest of its right workers: mid for sums, cheap for multiple choice.
    expect(row('best-per-kind:λ=0').accuracy).toBe(1);
    expect(row('best-per-kind:λ=0').costUsd.perQuestion).toBeCloseTo((200e-6 + 15e-6) / 2, 12);
    // At a lambda where any dollar outweighs a right answer, everything goes to the cheapest worker.
    expect(row('best-per-kind:λ=1000000').accuracy).toBe(0.5);
    expect(row('best-per-kind:λ=1000000').costUsd.perQuestion).toBeCloseTo(15e-6, 12);

    expect(report.hull).toEqual(['single:cheap-3', 'single:dear-1']);
    expect(report.aboveHull).toEqual(expect.arrayContaining(['best-per-kind:λ=0']));
    expect(report.aboveHull).not.toContain('single:mid-2');
    expect(reportMarkdown(report)).toMatch(/\| best-per-kind:λ=0 \|.*\| above \|/);
    expect(reportPlotSvg(report)).toMatch(/<polyline class="hull" points="[\d., ]+"/);
  });
});
