/**
 * Evaluations side by side: one row per method found in any of them (in the order they first appear),
 * one cell per evaluation (undefined where that evaluation did not run the method), and for each row the
 * evaluation with the highest accuracy. Test: test/unit/core/bench/eval/compare-reports.test.ts.
 */
import type { EvalReport, MethodReport } from './report.ts';

interface ComparedRow {
  method: string;
  cells: (MethodReport | undefined)[];
  /** Index of the evaluation most accurate on this method; undefined when fewer than two have a finite accuracy. */
  best?: number;
}

export function compareReports(reports: readonly EvalReport[]): ComparedRow[] {
  const methods = [...new Set(reports.flatMap((r) => r.methods.map((m) => m.method)))];
  return methods.map((method) => {
    const cells = reports.map((r) => r.methods.find((m) => m.method === method));
    const scored = cells.flatMap((c, i) => (c && Number.isFinite(c.accuracy) ? [{ i, accuracy: c.accuracy }] : []));
    const top = scored.reduce<(typeof scored)[number] | undefined>((a, b) => (a === undefined || b.accuracy > a.accuracy ? b : a), undefined);
    return { method, cells, ...(scored.length >= 2 && top ? { best: top.i } : {}) };
  });
}
