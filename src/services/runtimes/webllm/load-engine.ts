/**
 * Loads a web-llm model into an MLCEngine in the current thread (meant for a worker). web-llm is
 * imported here, on demand, so it stays out of the page's first-paint bundle. Aborting unloads the
 * engine, which also cancels web-llm's downloads.
 */
import type { MLCEngine } from '@mlc-ai/web-llm';
import { BatonError } from '../../../core/errors/index.ts';
import { buildWebllmEngineConfig, type WebllmEngineOptions } from './engine-config.ts';
import type { WebllmModelChoice } from './model-choices.ts';
import { toWebllmError } from './webllm-error.ts';

export async function loadWebllmEngine(
  choice: Pick<WebllmModelChoice, 'modelId' | 'record'>,
  options: WebllmEngineOptions & { signal?: AbortSignal },
): Promise<MLCEngine> {
  if (options.signal?.aborted) throw new BatonError({ code: 'run/aborted', message: 'Stopped.' });
  const { MLCEngine } = await import('@mlc-ai/web-llm');
  const setup = buildWebllmEngineConfig(choice, options);
  const engine = new MLCEngine(setup.engineConfig);
  const unload = () => void engine.unload();
  options.signal?.addEventListener('abort', unload, { once: true });
  try {
    await engine.reload(setup.modelId);
    return engine;
  } catch (e) {
    if (options.signal?.aborted) throw new BatonError({ code: 'run/aborted', message: 'Stopped.', cause: e });
    throw toWebllmError(e);
  } finally {
    options.signal?.removeEventListener('abort', unload);
  }
}
