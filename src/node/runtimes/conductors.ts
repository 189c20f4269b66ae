/**
 * The Node host of core/conductor's createConductor, for `baton run --conductor` and `baton eval --method
 * conductor:<choice>` alike: an engine model from its directory on Dawn (NodeLocalModels, shared with the pool's
 * local workers and their GPU queue), a plan file read from disk, a remote endpoint with its key from the
 * environment. web-llm runs in a browser tab only.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  conductorMaker,
  DEMO_ENGINE_MODEL,
  describeSource,
  parseConductorChoice,
  type ConductorChoice,
  type ConductorHost,
  type ConductorSettings,
  type EngineAdapterSource,
  type EngineModelChoice,
  type EngineModelSource,
} from '../../core/conductor/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { Conductor } from '../../core/orchestra/index.ts';
import { loadProviders, resolveApiKey, type WorkerModel } from '../../core/providers/index.ts';
import { readTrainedFormat } from '../../core/rl/index.ts';
import type { Task } from '../../core/task.ts';
import { filesFromDir } from '../../engine/model/files-node.ts';
import { CliError, type CliIo } from '../cli/index.ts';
import type { NodeLocalModels } from './local-models.ts';

export { CONDUCTOR_CHOICE_HELP } from '../../core/conductor/index.ts';

export interface NodeHostOptions {
  cwd: string;
  env: CliIo['env'];
  /** An adapter directory for an engine choice that names none (--lora). */
  lora?: string;
  /** The pool's local models: an engine Conductor on one of their directories shares its load and GPU queue. */
  models: NodeLocalModels;
}

const notOnDisk = (source: EngineModelSource | EngineAdapterSource) =>
  `${describeSource(source)} is read in a browser tab; under Node an engine model and its adapter are directories.`;

function dirOf(source: EngineModelSource | EngineAdapterSource): string {
  if (source.from !== 'dir') throw new BatonError({ code: 'run/config', message: notOnDisk(source) });
  return source.path;
}

function cannotRun(choice: ConductorChoice): string | undefined {
  if (choice.kind === 'webllm-model') return `web-llm runs in a browser tab: evaluate ${choice.modelId} on the Evaluate page.`;
  const model = choice.kind === 'engine-model' ? choice.model : choice.kind === 'demo-auto' ? DEMO_ENGINE_MODEL : undefined;
  const away = model && [model.source, model.adapter].find((s) => s !== undefined && s.from !== 'dir');
  return away ? notOnDisk(away) : undefined;
}

async function readPlan(cwd: string, file: string): Promise<string> {
  const path = resolve(cwd, file);
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BatonError({
      code: code === 'ENOENT' ? 'data/not-found' : 'store/io',
      message: `cannot read ${path} (${code ?? (e as Error).message}).`,
      cause: e,
    });
  }
}

export function nodeConductorHost(options: NodeHostOptions): ConductorHost {
  const { cwd, models } = options;
  return {
    cannotRun,
    gpu: models.gpu,
    async loadEngine(model: EngineModelChoice) {
      const modelDir = dirOf(model.source);
      const lora = model.adapter ? dirOf(model.adapter) : options.lora;
      const weights = model.weights === 'auto' ? undefined : model.weights;
      const [loaded, { EnginePolicy }] = await Promise.all([
        models.open({ modelDir, ...(lora ? { loraDir: lora } : {}), ...(weights ? { weights } : {}) }),
        import('../../engine/index.ts'),
      ]);
      const format = await readTrainedFormat([lora, modelDir].map((d) => (d === undefined ? undefined : filesFromDir(resolve(cwd, d)))));
      return {
        policy: new EnginePolicy(loaded.model, loaded.tokenizer!),
        tokenizer: loaded.tokenizer!,
        vocabSize: loaded.model.config.vocabSize,
        model: modelDir,
        ...(lora ? { adapter: lora } : {}),
        ...(format ? { format } : {}),
      };
    },
    readPlan: (file) => readPlan(cwd, file),
    async remoteWorker(baseUrl, model) {
      const { createWorkerModel } = await loadProviders();
      const spec = { id: 'remote-conductor', provider: 'openai-compatible' as const, model, baseUrl };
      const { key, keyName } = resolveApiKey(spec, options.env);
      return createWorkerModel(spec, { apiKey: key, keyName });
    },
  };
}

/** The choice `--conductor` names, models and adapters read as directories. */
function parseConductorFlag(text: string): ConductorChoice {
  try {
    return parseConductorChoice(text, 'dir');
  } catch (e) {
    throw new CliError(`--conductor: ${(e as BatonError).message}`, 2);
  }
}

/** The one Conductor of `baton run`, for its task: a choice this host cannot run, or a worker not in the pool, is a usage error. */
export async function runConductor(
  text: string,
  options: NodeHostOptions,
  run: Omit<ConductorSettings, 'poolIds' | 'where'> & { pool: WorkerModel[]; task: Task },
): Promise<Conductor> {
  const settings = { poolIds: run.pool.map((w) => w.spec.id), maxSteps: run.maxSteps, access: run.access, where: `--conductor ${text}` };
  const maker = await conductorMaker(parseConductorFlag(text), nodeConductorHost(options), settings).catch((e: unknown) => {
    throw BatonError.is(e, 'run/config') ? new CliError(e.message, 2) : e;
  });
  await maker.load();
  return maker.conductor({ task: run.task, pool: run.pool });
}
