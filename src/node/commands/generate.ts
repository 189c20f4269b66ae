/**
 * `baton generate`: continues a prompt with Baton's engine (WebGPU; Dawn under Node): greedy by
 * default, or seeded sampling with temperature / top-k / top-p, optionally with a LoRA adapter.
 * --n samples a group decoded as one batch after a single prefill (as GRPO samples). Prints the
 * completion text, or with --json one JSON line per sample with its token ids and the
 * log-probability of each under the sampling temperature.
 */
import type { ChatMessage } from '../../core/providers/index.ts';
import { CliError, intFlag, numberFlag, parseFlags, readTextFlag, type CliIo } from '../io.ts';
import { createWorkflowConstraint, tokenVocabOf, type WorkflowFormat } from '../../core/workflow/constrain/index.ts';
import { EnginePolicy } from '../../engine/index.ts';
import { ENGINE_FLAGS, ENGINE_FLAGS_HELP, parseEngineFlags } from '../engine-flags.ts';
import { openNodeModel } from '../webgpu.ts';

const USAGE = `usage: baton generate --model DIR [--lora DIR] (--prompt TEXT | --messages FILE) [options]

options:
${ENGINE_FLAGS_HELP}
  --prompt TEXT          one user message, rendered with the model's chat template
  --messages FILE        a JSON array of {role, content}; a final assistant message is continued
  --raw                  tokenise --prompt as it is, without the chat template
  --max-new-tokens N     most tokens to generate (default 128)
  --temperature T        0 is greedy (default); above 0 samples
  --top-k K              sample among the K most likely tokens, and any tied with the K-th (default: all)
  --top-p P              sample within the most likely tokens holding probability >= P, ties kept (default 1)
  --seed S               sampling seed (default 0); sample i of --n draws from its own stream of (S, i)
  --n G                  number of samples, decoded together as one batch (default 1)
  --constrain workflow   sample only text that is a valid Conductor workflow (needs --workers)
  --workers N            with --constrain workflow: the worker pool size (model ids 0..N-1)
  --max-steps K          with --constrain workflow: the most steps a workflow may have
  --json                 one JSON line per sample: {index, text, tokens, logprobs, finishReason}
`;

function parseMessages(text: string, file: string): ChatMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not valid JSON (${(e as Error).message})`, 2);
  }
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((m) => m && ['system', 'user', 'assistant'].includes(m.role) && typeof m.content === 'string');
  if (!ok) throw new CliError(`${file}: expected a non-empty JSON array of {"role": "system"|"user"|"assistant", "content": "..."}`, 2);
  return value as ChatMessage[];
}

/** The workflow format of --constrain workflow --workers N [--max-steps K], or undefined without --constrain. */
function constrainFlags(constrain: string | undefined, workers: string | undefined, maxSteps: string | undefined): WorkflowFormat | undefined {
  if (constrain === undefined) {
    if (workers !== undefined || maxSteps !== undefined) throw new CliError('--workers and --max-steps apply to --constrain workflow only', 2);
    return undefined;
  }
  if (constrain !== 'workflow') throw new CliError(`--constrain must be "workflow", got "${constrain}"`, 2);
  const pool = intFlag('workers', workers, undefined);
  if (pool === undefined || pool < 1) throw new CliError('--constrain workflow needs --workers N (the pool size, at least 1)', 2);
  const steps = intFlag('max-steps', maxSteps, undefined);
  if (steps !== undefined && steps < 1) throw new CliError(`--max-steps must be at least 1, got ${steps}`, 2);
  return { workers: pool, ...(steps === undefined ? {} : { maxSteps: steps }) };
}

export async function generateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, {
    ...ENGINE_FLAGS,
    prompt: { type: 'string' },
    messages: { type: 'string' },
    raw: { type: 'boolean' },
    'max-new-tokens': { type: 'string' },
    temperature: { type: 'string' },
    'top-k': { type: 'string' },
    'top-p': { type: 'string' },
    seed: { type: 'string' },
    n: { type: 'string' },
    constrain: { type: 'string' },
    workers: { type: 'string' },
    'max-steps': { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const choice = parseEngineFlags(values, io.cwd);
  if ((values.prompt === undefined) === (values.messages === undefined)) throw new CliError('give exactly one of --prompt TEXT and --messages FILE', 2);
  if (values.raw && values.messages !== undefined) throw new CliError('--raw applies to --prompt only', 2);
  const maxNewTokens = intFlag('max-new-tokens', values['max-new-tokens'], 128)!;
  const temperature = numberFlag('temperature', values.temperature, 0)!;
  const topK = intFlag('top-k', values['top-k'], 0)!;
  const topP = numberFlag('top-p', values['top-p'], 1)!;
  const seed = intFlag('seed', values.seed, 0)!;
  const n = intFlag('n', values.n, 1)!;
  if (maxNewTokens < 1) throw new CliError(`--max-new-tokens must be at least 1, got ${maxNewTokens}`, 2);
  if (temperature < 0) throw new CliError(`--temperature must be 0 or more, got ${temperature}`, 2);
  if (topK < 0) throw new CliError(`--top-k must be 0 or more, got ${topK}`, 2);
  if (!(topP > 0 && topP <= 1)) throw new CliError(`--top-p must be in (0, 1], got ${topP}`, 2);
  if (n < 1) throw new CliError(`--n must be at least 1, got ${n}`, 2);
  const workflowFormat = constrainFlags(values.constrain, values.workers, values['max-steps']);
  const messages = values.messages === undefined ? undefined : parseMessages(await readTextFlag(io, 'messages', values.messages), values.messages);

  const loaded = await openNodeModel({ ...choice, withTokenizer: true });
  try {
    const tokenizer = loaded.tokenizer!;
    const policy = new EnginePolicy(loaded.model, tokenizer);
    const prompt = values.raw ? tokenizer.encode(values.prompt!) : (messages ?? [{ role: 'user' as const, content: values.prompt! }]);
    const tokens = workflowFormat ? tokenVocabOf(tokenizer, loaded.model.config.vocabSize) : undefined;
    const completions = await policy.generateGroup(prompt, {
      n,
      maxNewTokens,
      sampling: { temperature, topK, topP, seed },
      continueFinal: messages?.[messages.length - 1]?.role === 'assistant',
      ...(workflowFormat && tokens ? { constraint: createWorkflowConstraint({ ...tokens, ...workflowFormat }), stopTokens: tokens.eosIds } : {}),
    });
    for (const c of completions) {
      if (values.json) {
        io.stdout(`${JSON.stringify({ index: c.index, text: c.text, tokens: c.tokens, logprobs: c.logprobs, finishReason: c.finishReason })}\n`);
      } else {
        io.stdout(n > 1 ? `--- sample ${c.index}\n${c.text}\n` : `${c.text}\n`);
      }
    }
    return 0;
  } finally {
    loaded.close();
  }
}
