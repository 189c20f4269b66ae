/**
 * The Train page's "Export for a GPU server": the run as set on the page, packed by core/rl's
 * trainBundleFiles (as `baton export train-bundle` packs one) into a zip: the CLI bundled at build time
 * (vite.config.ts puts it under <base>baton-cli/), fetched from the app's own origin only now; the
 * page's settings as a `baton train --config` file; the questions it would train and evaluate on; the
 * pool without keys (a replay pool with its records of those questions); and the demo Conductor's files when it is the model (a Hub or URL model is named
 * in the README instead: it may be gigabytes). fflate loads with the first export.
 */
import { BatonError } from '../../core/errors/index.ts';
import { providerConcurrencyText } from '../../core/orchestra/index.ts';
import { loadReplay, recordedSourceOf } from '../../core/providers/replay/index.ts';
import { heldOutSample, recordedSourcesOf, trainBundleFiles } from '../../core/rl/index.ts';
import { recordedSource } from '../recorded/index.ts';
import { demoModelUrl } from '../runtimes/index.ts';
import type { TrainingConfig } from './api.ts';
import { recipeOf } from './training-recipe.ts';
import { trainingTasks } from './training-tasks.ts';

/** Where the build puts the bundled CLI and the webgpu version it was built against. */
export const CLI_ASSETS = 'baton-cli/';
const DEMO_FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'];

async function fetchBytes(url: string, what: string): Promise<Uint8Array> {
  const response = await fetch(url).catch((e: unknown) => {
    throw new BatonError({ code: 'data/unreachable', message: `${what} could not be fetched from this app's server (${(e as Error).message}).`, cause: e });
  });
  if (!response.ok)
    throw new BatonError({
      code: 'data/not-found',
      message: `${what} is missing from this app's server (HTTP ${response.status}); the build puts it there (npm run build).`,
      data: { url },
    });
  return new Uint8Array(await response.arrayBuffer());
}

/** The page's settings as baton train's flags (the rest are baton train's defaults, the page's recipe's too). */
export function trainSettingsOf(config: TrainingConfig): Record<string, string | number | boolean> {
  const r = recipeOf(config);
  return {
    ...(config.model.from === 'demo' ? { weights: 'f32' } : {}),
    steps: r.steps,
    questions: r.questions,
    group: r.group,
    ...(r.everyPlan ? { 'every-plan': true } : {}),
    lr: r.lr,
    r: r.lora.r,
    alpha: r.lora.alpha,
    targets: r.lora.targets.join(','),
    'max-completion-tokens': r.maxCompletionTokens,
    ...(r.fixedSubtasks ? { subtasks: 'fixed' } : r.maxSubtaskChars === undefined ? {} : { 'max-subtask-chars': r.maxSubtaskChars }),
    'max-steps': r.maxSteps,
    constrain: r.constrain,
    prompt: r.prompt,
    ...(r.questionChars === undefined ? {} : { 'question-chars': r.questionChars }),
    'eval-every': r.evalEvery,
    'checkpoint-every': r.checkpointEvery,
    seed: r.seed,
    ...(r.recursion ? { recursion: r.recursion } : {}),
    ...(r.concurrency ? { concurrency: providerConcurrencyText(r.concurrency) } : {}),
    ...(r.responseCache === false ? { 'no-cache': true } : {}),
  };
}

function modelOf(config: TrainingConfig): { source: string } | undefined {
  switch (config.model.from) {
    case 'demo':
      return undefined;
    case 'hub':
      return { source: `the Hugging Face repo ${config.model.repo}` };
    case 'url':
      return { source: `at ${config.model.url}` };
    case 'picked':
      return { source: `the folder ${config.model.name} picked in the browser` };
  }
}

/** The zip's bytes; `config` is checked and its pool filled in by the caller. */
export async function trainBundleZip(config: TrainingConfig): Promise<Uint8Array> {
  const cli = new URL(`${import.meta.env.BASE_URL}${CLI_ASSETS}`, self.location.origin).href;
  const [script, version, tasks, { zipSync }] = await Promise.all([
    fetchBytes(`${cli}baton.mjs`, 'The bundled CLI'),
    fetchBytes(`${cli}version.json`, "The bundled CLI's version file"),
    trainingTasks(config.tasks, config.seed),
    import('fflate'),
  ]);
  // A recorded pool's records travel as data/<source>/ files; other replay workers', as the Workers page imported them.
  const sources = recordedSourcesOf(config.pool);
  const recorded = Object.fromEntries(await Promise.all(sources.map(async (s) => [s, await recordedSource(s)] as const)));
  const routeLlm = config.pool.some((w) => w.provider === 'replay' && recordedSourceOf(w.model) === undefined);
  const replay = routeLlm ? (await loadReplay(indexedDB))?.table : undefined;
  const named = modelOf(config);
  const demo = demoModelUrl();
  const model = named ?? {
    files: Object.fromEntries(await Promise.all(DEMO_FILES.map(async (f) => [f, await fetchBytes(`${demo}${f}`, `The demo Conductor's ${f}`)] as const))),
  };
  const files = trainBundleFiles({
    script,
    webgpuVersion: (JSON.parse(new TextDecoder().decode(version)) as { webgpu: string }).webgpu,
    settings: trainSettingsOf(config),
    tasks: tasks.train,
    heldOut: heldOutSample(tasks.heldOut, config.heldOut),
    pool: config.pool,
    model,
    ...(replay ? { replay } : {}),
    recorded,
  });
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, bytes]) => [`baton-train/${path}`, bytes])));
}
