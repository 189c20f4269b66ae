/**
 * What of the question reaches the token where a Conductor writes its first model id (docs/learning.md), for a
 * task set whose questions come from several sources (routerbench, zeroeval, experts), on the compact prompt
 * reading --question-chars of each question:
 * - `words`: how often a naive Bayes classifier over the words of those characters, fitted on the train split,
 *   names the source of a held-out question: what a reader of those characters can tell at all;
 * - per model (a model directory, or the bench's random start of --hidden): `probe`, how often a one-vs-rest
 *   ridge regression on the model's log-probabilities at that token (the prompt, then `model_id = [`) names the
 *   source, fitted on half of --per-set questions of each source and scored on the other half; and how much the
 *   model-id tokens' log-probabilities differ between questions (`idSpread`, max - min in nats) and between the
 *   sources' means (`idBetweenSources`), and each id's mean probability among the ids alone (`idShare`: how a constrained sampler's first plans split).
 * The model runs on the float64 reference forward (CPU), so keep it small. Prints one JSON line.
 *
 * Run: npm run bench:question-probe -- --tasks routerbench --pool routerbench-4 [--model DIR ...]
 *        [--question-chars 200] [--per-set 60] [--hidden 32] [--seed 1]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isBuiltInTaskSet } from '../src/core/bench/index.ts';
import { compactPromptWithin } from '../src/core/rl/index.ts';
import type { Task } from '../src/core/task.ts';
import { filesFromDir } from '../src/engine/model/files-node.ts';
import { openModel } from '../src/engine/model/index.ts';
import { loadRefModel, refForward } from '../src/engine/runtime/index.ts';
import { loadTokenizer } from '../src/engine/tokenizer/index.ts';
import { builtInPool, readBuiltInTaskSet, type BuiltInPool } from '../src/node/inputs/index.ts';
import { writeRandomConductor } from '../src/node/models/index.ts';
import { benchConductorShape } from './learning-run.ts';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: 'routerbench' },
    pool: { type: 'string', default: 'routerbench-4' },
    model: { type: 'string', multiple: true },
    'question-chars': { type: 'string', default: '200' },
    'per-set': { type: 'string', default: '60' },
    hidden: { type: 'string', default: '32' },
    seed: { type: 'string', default: '1' },
  },
});
if (!isBuiltInTaskSet(values.tasks)) throw new Error(`--tasks must be a built-in task set, got ${values.tasks}`);
const chars = Number(values['question-chars']);
const perSet = Number(values['per-set']);
const seed = Number(values.seed);

const split = await readBuiltInTaskSet(values.tasks, seed);
const workers = await builtInPool(values.pool as BuiltInPool);
const source = (t: Task) => t.dataset ?? t.kind;
const sources = [...new Set(split.train.map(source))];

/** Bernoulli naive Bayes over the word and digit tokens of each question's first `chars` characters. */
function wordsAccuracy(): number {
  const words = (t: Task) => new Set(t.question.slice(0, chars).match(/[A-Za-z]+|\d|[^\sA-Za-z\d]/g) ?? []);
  const count = new Map(sources.map((s) => [s, { n: 0, words: new Map<string, number>() }]));
  for (const t of split.train) {
    const c = count.get(source(t))!;
    c.n++;
    for (const w of words(t)) c.words.set(w, (c.words.get(w) ?? 0) + 1);
  }
  const score = (s: string, ws: Set<string>) => {
    const c = count.get(s)!;
    return [...ws].reduce((sum, w) => sum + Math.log(((c.words.get(w) ?? 0) + 1) / (c.n + 2)), Math.log(c.n));
  };
  const right = split.heldOut.filter((t) => {
    const ws = words(t);
    return sources.reduce((best, s) => (score(s, ws) > score(best, ws) ? s : best)) === source(t);
  });
  return right.length / split.heldOut.length;
}

/** Solves (K + lambda I) a = y by Gauss-Jordan elimination with partial pivoting. */
function solve(K: number[][], lambda: number, y: number[]): number[] {
  const n = y.length;
  const A = K.map((row, i) => [...row.map((v, j) => v + (i === j ? lambda : 0)), y[i]]);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(A[r][i]) > Math.abs(A[p][i])) p = r;
    [A[i], A[p]] = [A[p], A[i]];
    for (let r = 0; r < n; r++) {
      if (r === i) continue;
      const f = A[r][i] / A[i][i];
      for (let k = i; k <= n; k++) A[r][k] -= f * A[i][k];
    }
  }
  return A.map((row, i) => row[n] / row[i]);
}

const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, v, i) => s + v * b[i], 0);

/** Even-indexed questions of each source fit the one-vs-rest ridge regressions, odd-indexed ones score them; the best of three ridges. */
function probeAccuracy(rows: { source: string; x: Float64Array }[]): number {
  const fit = rows.filter((_, i) => i % 2 === 0);
  const test = rows.filter((_, i) => i % 2 === 1);
  const mean = new Float64Array(rows[0].x.length);
  for (const r of fit) r.x.forEach((v, j) => (mean[j] += v / fit.length));
  const centred = (x: Float64Array) => x.map((v, j) => v - mean[j]);
  const F = fit.map((r) => centred(r.x));
  const T = test.map((r) => centred(r.x));
  const K = F.map((a) => F.map((b) => dot(a, b)));
  const KT = T.map((t) => F.map((f) => dot(f, t)));
  const trace = K.reduce((s, row, i) => s + row[i], 0) / K.length;
  return Math.max(
    ...[1e-3, 1e-1, 10].map((ridge) => {
      const alphas = sources.map((s) =>
        solve(
          K,
          ridge * trace,
          fit.map((r) => (r.source === s ? 1 : -1)),
        ),
      );
      const right = T.filter((_, e) => {
        const scores = alphas.map((a) => a.reduce((sum, v, j) => sum + v * KT[e][j], 0));
        return sources[scores.indexOf(Math.max(...scores))] === test[e].source;
      });
      return right.length / T.length;
    }),
  );
}

async function probeModel(dir: string, name = dir) {
  const files = filesFromDir(dir);
  const opened = await openModel(files);
  const model = await loadRefModel(opened.tensors, opened.config);
  const tokenizer = await loadTokenizer(files);
  const V = opened.config.vocabSize;
  const prompt = compactPromptWithin(chars);
  const head = tokenizer.encode('model_id = [');
  const ids = workers.map((_, i) => tokenizer.encode(String(i))[0]);
  const rows = sources.flatMap((s) =>
    split.train
      .filter((t) => source(t) === s)
      .slice(0, perSet)
      .map((t) => {
        const tokens = [...tokenizer.encodeChat(prompt(t, workers, { maxSteps: 1, access: 'binary' }), { continueFinal: false }), ...head];
        const logits = refForward(model, tokens).subarray((tokens.length - 1) * V);
        const max = Math.max(...logits);
        const lse = max + Math.log(logits.reduce((sum, z) => sum + Math.exp(z - max), 0));
        return { source: s, x: logits.map((z) => z - lse) };
      }),
  );
  const idLogp = (r: { x: Float64Array }) => ids.map((id) => r.x[id]);
  const spread = ids.map((_, k) => {
    const all = rows.map((r) => idLogp(r)[k]);
    const means = sources.map((s) => {
      const of = rows.filter((r) => r.source === s).map((r) => idLogp(r)[k]);
      return of.reduce((a, b) => a + b, 0) / of.length;
    });
    return {
      spread: Math.max(...all) - Math.min(...all),
      between: Math.max(...means) - Math.min(...means),
      share:
        rows.reduce((sum, r) => {
          const lp = idLogp(r);
          return sum + Math.exp(lp[k]) / lp.reduce((z, v) => z + Math.exp(v), 0);
        }, 0) / rows.length,
    };
  });
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    model: name,
    probe: round(probeAccuracy(rows)),
    idSpread: spread.map((s) => round(s.spread)),
    idBetweenSources: spread.map((s) => round(s.between)),
    idShare: spread.map((s) => round(s.share)),
  };
}

const work = await mkdtemp(join(tmpdir(), 'baton-question-probe-'));
try {
  const probes = [];
  for (const dir of values.model ?? []) probes.push(await probeModel(dir));
  if (probes.length === 0) {
    const dir = join(work, 'random-start');
    // The random start bench/cost-frontier.ts trains from.
    await writeRandomConductor(dir, benchConductorShape(Number(values.hidden), seed));
    probes.push(await probeModel(dir, `random start (hidden ${values.hidden}, seed ${seed})`));
  }
  const counts = Object.fromEntries(sources.map((s) => [s, split.train.filter((t) => source(t) === s).length]));
  console.log(
    JSON.stringify({ tasks: values.tasks, questionChars: chars, trainQuestions: counts, words: Math.round(wordsAccuracy() * 1000) / 1000, models: probes }),
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
