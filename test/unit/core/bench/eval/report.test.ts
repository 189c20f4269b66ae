/** The report's pieces on hand-made runs: percentiles, the error formula's small cases, the Pareto front, the table and the plot. */
import { describe, expect, it } from 'vitest';
import { buildReport, itemAccuracy, paretoFront, percentile, reportMarkdown, reportPlotSvg, evalTags } from '../../../../../src/core/bench/index.ts';
import type { Episode, StepRecord } from '../../../../../src/core/episodes/index.ts';
import { makeEpisode } from '../../../../support/episode-factory.ts';
import { seededRandom } from '../../../../../src/core/random.ts';

describe('statistics', () => {
  it('takes nearest-rank percentiles', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 95)).toBe(5);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(95);
    expect(percentile([], 50)).toBeNaN();
  });

  it('gives sqrt(p(1-p)/(n-1)) with one repeat, and averages repeats within an item first', () => {
    const one = new Map([
      ['a', [true]],
      ['b', [false]],
      ['c', [true]],
      ['d', [true]],
    ]);
    expect(itemAccuracy(one).accuracy).toBe(0.75);
    expect(itemAccuracy(one).stderr).toBeCloseTo(Math.sqrt((0.75 * 0.25) / 3), 12);
    // Items right 1 in 2, 2 in 2 and 0 in 1: (0.5 + 1 + 0) / 3 = 0.5 over items, where runs would say 3/5.
    const two = new Map([
      ['a', [true, false]],
      ['b', [true, true]],
      ['c', [false]],
    ]);
    expect(itemAccuracy(two).accuracy).toBeCloseTo(0.5, 12);
    expect(itemAccuracy(two).items).toBe(3);
  });
});

describe('paretoFront', () => {
  it('keeps the methods no other beats on both accuracy and dollars', () => {
    const row = (method: string, accuracy: number, usd: number) => ({ method, accuracy, costUsd: { total: 0, perQuestion: usd, unknownRuns: 0 } });
    const rows = [
      row('cheap', 0.5, 0.001),
      row('dominated', 0.5, 0.01),
      row('best', 0.9, 0.02),
      row('pricey', 0.85, 0.05),
      row('mid', 0.7, 0.005),
      row('nan', NaN, 0),
    ];
    expect(paretoFront(rows)).toEqual(['cheap', 'best', 'mid']);
  });
});

function tagged(e: Episode, method: string, item: string, repeat: number): Episode {
  return { ...e, tags: evalTags('r', { method, item, repeat }) };
}

describe('buildReport', () => {
  const rng = seededRandom(3);
  const episodes = Array.from({ length: 40 }, (_, i) => tagged(makeEpisode(rng), i % 2 ? 'a' : 'b', `q${i >> 1}`, 0));

  it('counts infrastructure failures apart, malformed workflows, calls and tokens from the episodes', () => {
    const report = buildReport(episodes, { evalId: 'r', methods: ['a', 'b'] });
    for (const row of report.methods) {
      const mine = episodes.filter((e) => e.tags.includes(`method:${row.method}`) && e.status !== 'aborted' && e.status !== 'budget');
      const infra = mine.filter((e) => e.status === 'infra-error' || e.reward?.infraError);
      expect(row.runs).toBe(mine.length);
      expect(row.infraFailures).toBe(infra.length);
      expect(row.graded).toBe(mine.filter((e) => e.reward && !infra.includes(e)).length);
      expect(row.graded + row.infraFailures + row.ungraded).toBe(row.runs);
      expect(row.malformedRate).toBeCloseTo(mine.filter((e) => e.status === 'format-error').length / mine.length, 12);
      const workerTokens = mine.flatMap((e) => [...e.steps, ...e.rounds.flatMap((r) => r.steps)]).reduce((s, st) => s + st.usage.input + st.usage.output, 0);
      expect(row.tokensPerQuestion.workers).toBeCloseTo(workerTokens / mine.length, 9);
    }
    expect(buildReport(episodes, { evalId: 'other', methods: ['a'] }).methods[0].runs).toBe(0);
  });

  it('writes a Markdown row per method and an SVG point per method with the front drawn', () => {
    const report = buildReport(episodes, { evalId: 'r', methods: ['a', 'b'] });
    const md = reportMarkdown(report);
    expect(md.split('\n').filter((l) => l.startsWith('| a |') || l.startsWith('| b |'))).toHaveLength(2);
    const svg = reportPlotSvg({ ...report, pareto: ['a', 'b'] });
    expect(svg.match(/<circle class="method"/g)).toHaveLength(
      report.methods.filter((m) => Number.isFinite(m.costUsd.perQuestion) && Number.isFinite(m.accuracy)).length,
    );
    expect(svg).toContain('data-method="a"');
  });

  it('starts the accuracy axis at the tenth at or below the lowest error bar, and places points on it', () => {
    const [a] = buildReport(episodes, { evalId: 'r', methods: ['a'] }).methods;
    const plot = (...accuracies: number[]) =>
      reportPlotSvg({ evaluation: { id: 'r' }, pareto: [], methods: accuracies.map((accuracy, i) => ({ ...a, method: `m${i}`, accuracy, stderr: 0.01 })) });
    const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
    const ticks = (svg: string) => [...svg.matchAll(/<text class="tick"[^>]*>(\d+)%<\/text>/g)].map((m) => Number(m[1]));
    const cy = (svg: string, method: string) => Number(new RegExp(`data-method="${method}" cx="[^"]+" cy="([^"]+)"`).exec(svg)![1]);
    const near = plot(0.82, 0.88);
    expect(sorted(ticks(near))).toEqual([80, 90, 100]);
    // 340 px of height from 80% (y 364) to 100% (y 24).
    expect(cy(near, 'm0')).toBeCloseTo(364 - 340 * (0.02 / 0.2), 1);
    expect(cy(near, 'm1')).toBeCloseTo(364 - 340 * (0.08 / 0.2), 1);
    expect(sorted(ticks(plot(0.05, 0.9)))).toEqual([0, 20, 40, 60, 80, 100]);
    expect(sorted(ticks(plot(1, 1)))).toEqual([90, 100]);
    // The error bar, not the point, sets the start: 0.805 - 0.01 is under 80%.
    expect(sorted(ticks(plot(0.805, 0.9)))).toEqual([70, 80, 90, 100]);
    // An odd start keeps 100% and steps of 20 down from it.
    expect(sorted(ticks(plot(0.35, 0.9)))).toEqual([40, 60, 80, 100]);
  });

  it('moves the label of a tying method down a line instead of printing over the other', () => {
    const report = buildReport(episodes, { evalId: 'r', methods: ['a'] });
    const twin = { ...report.methods[0], method: 'twin' };
    const svg = reportPlotSvg({ ...report, methods: [report.methods[0], twin] });
    const labelY = (name: string) => Number(new RegExp(`<text x="[^"]+" y="([^"]+)">${name}</text>`).exec(svg)![1]);
    expect(Math.abs(labelY('a') - labelY('twin'))).toBeGreaterThanOrEqual(14);
  });
});

describe('the oracle and dollars with infrastructure failures', () => {
  const rng = seededRandom(11);
  /** A single worker's run: right, wrong, or failed by its API (one paid step, then a failed call whose cost is unknown). */
  function run(method: string, item: string, outcome: 'right' | 'wrong' | 'infra'): Episode {
    const e = tagged(makeEpisode(rng), method, item, 0);
    const step = (costUsd: number | null, error?: StepRecord['error']): StepRecord => ({ ...e.steps[0], costUsd, ...(error ? { error } : {}) });
    if (outcome === 'infra') {
      const steps = [step(0.002), step(null, { code: 'provider/server', message: 'HTTP 500' })];
      return {
        ...e,
        rounds: [],
        completion: { text: e.completion.text },
        steps,
        status: 'infra-error',
        reward: { value: 0, correct: false, format: true, infraError: true, details: {} },
        totals: { ...e.totals, costUsd: null },
      };
    }
    return {
      ...e,
      rounds: [],
      completion: { text: e.completion.text },
      steps: [step(0.001)],
      status: 'ok',
      reward: { value: outcome === 'right' ? 1 : 0, correct: outcome === 'right', format: true, details: {} },
      totals: { ...e.totals, costUsd: 0.001 },
    };
  }

  it('calls an item the oracle cannot decide (none right, one failed) an infrastructure failure, so it stays at or above every single worker', () => {
    // "flaky" is right whenever its API answers and fails on q2, q3; "bad" is always wrong; on q4 flaky fails but "lucky" is right.
    const episodes = [
      ...['q0', 'q1', 'q4'].map((q, i) => run('single:flaky', q, i < 2 ? 'right' : 'infra')),
      ...['q2', 'q3'].map((q) => run('single:flaky', q, 'infra')),
      ...['q0', 'q1', 'q2', 'q3', 'q4'].map((q) => run('single:bad', q, 'wrong')),
      ...['q0', 'q1', 'q2', 'q3', 'q4'].map((q) => run('single:lucky', q, q === 'q4' ? 'right' : 'wrong')),
    ];
    const report = buildReport(episodes, {
      evalId: 'r',
      methods: ['single:flaky', 'single:bad', 'single:lucky'],
      oracle: { singles: ['single:flaky', 'single:bad', 'single:lucky'] },
    });
    const row = (m: string) => report.methods.find((x) => x.method === m)!;
    expect(row('single:flaky')).toMatchObject({ graded: 2, accuracy: 1, infraFailures: 3 });
    expect(row('oracle')).toMatchObject({ runs: 5, graded: 3, correct: 3, accuracy: 1, infraFailures: 2 });
    for (const single of ['single:flaky', 'single:bad', 'single:lucky']) expect(row('oracle').accuracy).toBeGreaterThanOrEqual(row(single).accuracy);
  });

  it('counts the paid calls of a run that failed later, and says how many runs hold a cost it does not know', () => {
    const episodes = [run('single:flaky', 'q0', 'right'), run('single:flaky', 'q1', 'infra'), run('single:flaky', 'q2', 'infra')];
    const report = buildReport(episodes, { evalId: 'r', methods: ['single:flaky'], oracle: { singles: ['single:flaky'] } });
    for (const m of report.methods) {
      expect(m.costUsd.total, m.method).toBeCloseTo(0.001 + 2 * 0.002, 12);
      expect(m.costUsd.perQuestion, m.method).toBeCloseTo((0.001 + 2 * 0.002) / 3, 12);
      expect(m.costUsd.unknownRuns, m.method).toBe(2);
    }
    expect(reportMarkdown(report)).toContain('(2 with a cost unknown)');
  });
});
