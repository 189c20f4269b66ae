/**
 * Accuracy against dollars per question as a hand-written SVG: one point per method, the Pareto front as a
 * dashed line, and where the report has one, the single workers' hull (RouterBench's cost-quality plane:
 * what mixing single workers reaches) as a grey line, flat past its most accurate worker.
 */
import type { EvalReport } from './report.ts';

const W = 640;
const H = 420;
const M = { left: 64, right: 24, top: 24, bottom: 56 };
/** Label line height and the width of a character at font-size 12, roughly. */
const LINE = 14;
const CHAR = 6.5;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (x: number) => Number(x.toFixed(2)).toString();

export function reportPlotSvg(report: EvalReport): string {
  const points = report.methods.filter((m) => Number.isFinite(m.accuracy) && Number.isFinite(m.costUsd.perQuestion));
  const maxCost = Math.max(...points.map((p) => p.costUsd.perQuestion), 0) || 1;
  const x = (usd: number) => M.left + (usd / (maxCost * 1.1)) * (W - M.left - M.right);
  // The axis starts at the tenth at or below the lowest error bar: the methods of one pool often sit within a few
  // points of each other near the top, where a 0-100% axis would print them over one another.
  const lowest = Math.min(...points.map((p) => p.accuracy - (Number.isFinite(p.stderr) ? p.stderr : 0)));
  const low = points.length > 0 ? Math.min(0.9, Math.max(0, Math.floor(lowest * 10) / 10)) : 0;
  const y = (acc: number) => H - M.bottom - ((acc - low) / (1 - low)) * (H - M.top - M.bottom);
  const tenths = Math.round(low * 10);
  const tickTenths = 10 - tenths <= 5 ? 1 : 2;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="black"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="black"/>`,
  ];
  // Counted down from 100%, which always has its tick.
  for (let t = 10; t >= tenths; t -= tickTenths) {
    parts.push(
      `<text class="tick" x="${M.left - 8}" y="${fmt(y(t / 10) + 4)}" text-anchor="end">${t * 10}%</text>`,
      `<line x1="${M.left}" y1="${fmt(y(t / 10))}" x2="${W - M.right}" y2="${fmt(y(t / 10))}" stroke="#ddd"/>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const usd = (maxCost * 1.1 * i) / 4;
    parts.push(`<text x="${fmt(x(usd))}" y="${H - M.bottom + 18}" text-anchor="middle">$${Number(usd.toPrecision(2))}</text>`);
  }
  parts.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">dollars per question</text>`,
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">accuracy</text>`,
  );
  const hull = (report.hull ?? []).flatMap((name) => points.filter((p) => p.method === name));
  if (hull.length > 0) {
    const last = hull[hull.length - 1];
    const d = [...hull.map((p) => `${fmt(x(p.costUsd.perQuestion))},${fmt(y(p.accuracy))}`), `${W - M.right},${fmt(y(last.accuracy))}`].join(' ');
    parts.push(`<polyline class="hull" points="${d}" fill="none" stroke="#888" stroke-width="2"/>`);
  }
  const front = points.filter((p) => report.pareto.includes(p.method)).sort((a, b) => a.costUsd.perQuestion - b.costUsd.perQuestion);
  if (front.length > 1) {
    const d = front.map((p) => `${fmt(x(p.costUsd.perQuestion))},${fmt(y(p.accuracy))}`).join(' ');
    parts.push(`<polyline class="pareto" points="${d}" fill="none" stroke="#d62728" stroke-width="2" stroke-dasharray="6 4"/>`);
  }
  // Labels of nearby points are moved down one line at a time until they no longer overlap (methods
  // that tie, such as a plan run as fixed: and as conductor:fixed:, would otherwise print over each other).
  const placed: { x: number; y: number; width: number }[] = [];
  const labelY = (lx: number, ly: number, width: number) => {
    let at = ly;
    while (placed.some((l) => Math.abs(l.y - at) < LINE && lx < l.x + l.width && l.x < lx + width)) at += LINE;
    placed.push({ x: lx, y: at, width });
    return at;
  };
  for (const p of [...points].sort((a, b) => b.accuracy - a.accuracy)) {
    const onFront = report.pareto.includes(p.method);
    const cx = fmt(x(p.costUsd.perQuestion));
    const cy = fmt(y(p.accuracy));
    const err = Number.isFinite(p.stderr) ? p.stderr : 0;
    const lx = x(p.costUsd.perQuestion) + 8;
    parts.push(
      `<line x1="${cx}" y1="${fmt(y(Math.min(1, p.accuracy + err)))}" x2="${cx}" y2="${fmt(y(Math.max(0, p.accuracy - err)))}" stroke="#555"/>`,
      `<circle class="method" data-method="${escape(p.method)}" cx="${cx}" cy="${cy}" r="5" fill="${onFront ? '#d62728' : '#1f77b4'}"/>`,
      `<text x="${fmt(lx)}" y="${fmt(labelY(lx, y(p.accuracy) - 6, p.method.length * CHAR))}">${escape(p.method)}</text>`,
    );
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
