/**
 * Workers a user can add in one click. Prices are US dollars per million tokens as published by each
 * provider when this table was written: editable per worker, and shown as estimates.
 */
import { describeSource, engineWorkerFields, type ConductorChoice } from '../../client/index.ts';
import { DEMO_POOL, type WorkerSpec } from '../../core/providers/index.ts';
// demo-pool.ts directly: the simulated index also pulls in the graders (mathjs), which first paint must not load.

interface WorkerPreset {
  name: string;
  /** What the preset needs from the user before it works. */
  needs: string;
  spec: Omit<WorkerSpec, 'id'>;
}

export const WORKER_PRESETS: readonly WorkerPreset[] = [
  {
    name: 'GPT-5',
    needs: 'an OpenAI key',
    spec: { provider: 'openai', model: 'gpt-5', label: 'GPT-5', reasoning: 'minimal', maxTokens: 4096, price: { input: 1.25, output: 10, cachedInput: 0.125 } },
  },
  {
    name: 'Claude Sonnet',
    needs: 'an Anthropic key',
    spec: { provider: 'anthropic', model: 'claude-sonnet-4-5', label: 'Claude Sonnet', maxTokens: 4096, price: { input: 3, output: 15, cachedInput: 0.3 } },
  },
  {
    name: 'Gemini 2.5 Pro',
    needs: 'a Google AI Studio key',
    spec: { provider: 'google', model: 'gemini-2.5-pro', label: 'Gemini 2.5 Pro', reasoning: 128, maxTokens: 4096, price: { input: 1.25, output: 10 } },
  },
  {
    name: 'OpenRouter',
    needs: 'an OpenRouter key; set the model name',
    spec: { provider: 'openai-compatible', model: 'qwen/qwen3-32b', baseUrl: 'https://openrouter.ai/api/v1', label: 'OpenRouter model', maxTokens: 4096 },
  },
  {
    name: 'Local Ollama',
    needs: 'Ollama running with OLLAMA_ORIGINS set to this page',
    spec: {
      provider: 'openai-compatible',
      model: 'qwen2.5:7b',
      baseUrl: 'http://localhost:11434/v1',
      label: 'Ollama',
      maxTokens: 4096,
      price: { input: 0, output: 0 },
    },
  },
  {
    name: 'Local vLLM',
    needs: 'a vLLM server started with --allowed-origins',
    spec: {
      provider: 'openai-compatible',
      model: 'Qwen/Qwen2.5-7B-Instruct',
      baseUrl: 'http://localhost:8000/v1',
      label: 'vLLM',
      maxTokens: 4096,
      price: { input: 0, output: 0 },
    },
  },
  {
    name: "Demo model on Baton's engine (in this tab)",
    needs: 'no key and no network: it runs in this tab on WebGPU, beside the Conductor (a tiny model trained to route, so its answers are no use)',
    spec: { provider: 'engine', model: 'demo', label: 'Demo model (engine)', maxTokens: 64, price: { input: 0, output: 0 } },
  },
  {
    name: 'web-llm model (in this tab)',
    needs: "WebGPU and one download of the model, then no network; set web-llm's model id (the Conductor page lists them)",
    spec: { provider: 'webllm', model: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC', label: 'web-llm Qwen2.5 1.5B', maxTokens: 1024, price: { input: 0, output: 0 } },
  },
  ...DEMO_POOL.map(({ id: _id, ...spec }) => ({
    name: `Simulated: ${spec.label ?? spec.model}`,
    needs: 'nothing (answers only questions with a gold answer)',
    spec,
  })),
];

/**
 * The engine model the Conductor page loaded (a Hub repo or a URL, with its adapter), as a worker on Baton's engine
 * in this tab: it shares the Conductor's load. None for the demo (a preset above) or for picked files, which a
 * stored pool cannot name.
 */
export function conductorModelPreset(conductor: ConductorChoice): WorkerPreset | undefined {
  if (conductor.kind !== 'engine-model' || conductor.model.source.from === 'demo') return undefined;
  const fields = engineWorkerFields(conductor.model);
  if (!fields) return undefined;
  const name = describeSource(conductor.model.source);
  return {
    name: `Your engine model: ${name}${conductor.model.adapter ? ` + ${describeSource(conductor.model.adapter)}` : ''} (in this tab)`,
    needs: "no key: it runs in this tab on the Conductor's own load of the model",
    spec: { provider: 'engine', ...fields, label: name, maxTokens: 1024, price: { input: 0, output: 0 } },
  };
}
