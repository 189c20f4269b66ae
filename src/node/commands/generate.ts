/**
 * `baton generate`: continues a prompt with Baton's engine (WebGPU; Dawn under Node): greedy by
 * default, or seeded sampling with temperature / top-k / top-p, optionally with a LoRA adapter.
 * --n samples a group decoded as one batch after a single prefill (as GRPO samples). Prints the
 * completion text, or with --json one JSON line per sample with its token ids and the
 * log-probability of each under the sampling temperature.
 */
import type { ChatMessage } from '../../core/providers/index.ts';
import { createWorkflowConstraint, tokenVocabOf, type WorkflowFormat } from '../../core/workflow/constrain/index.ts';
import { EnginePolicy } from '../../engine/index.ts';
import { atLeast, choice, CliError, int, notNegative, num, parseFlags, printHelp, readTextFlag, text, toggle, type CliIo } from '../cli/index.ts';
import { MODEL_FLAGS, modelRefOf, openNodeModel } from '../models/index.ts';

const FLAGS = {
  ...MODEL_FLAGS,
  prompt: text({ arg: 'TEXT', help: "one user message, rendered with the model's chat template" }),
  messages: text({ arg: 'FILE', help: 'a JSON array of {role, content}; a final assistant message is continued' }),
  raw: toggle({ help: 'tokenise --prompt as it is, without the chat template' }),
  'max-new-tokens': int({ arg: 'N', help: 'most tokens to generate', default: 128, check: atLeast(1) }),
  temperature: num({ arg: 'T', help: '0 is greedy; above 0 samples', default: 0, check: notNegative }),
  'top-k': int({ arg: 'K', help: 'sample among the K most likely tokens, and any tied with the K-th; 0: all of them', default: 0, check: notNegative }),
  'top-p': num({
    arg: 'P',
    help: 'sample within the most likely tokens holding probability >= P, ties kept',
    default: 1,
    check: (p) => (p > 0 && p <= 1 ? undefined : `must be in (0, 1], got ${p}`),
  }),
  seed: int({ arg: 'S', help: 'sampling seed; sample i of --n draws from its own stream of (S, i)', default: 0 }),
  n: int({ arg: 'G', help: 'number of samples, decoded together as one batch', default: 1, check: atLeast(1) }),
  constrain: choice(['workflow'], { arg: 'workflow', help: 'sample only text that is a valid Conductor workflow (needs --workers)' }),
  workers: int({ arg: 'N', help: 'with --constrain workflow: the worker pool size (model ids 0..N-1)' }),
  'max-steps': int({ arg: 'K', help: 'with --constrain workflow: the most steps a workflow may have', check: atLeast(1) }),
  json: toggle({ help: 'one JSON line per sample: {index, text, tokens, logprobs, finishReason}' }),
};

const HELP = { usage: 'usage: baton generate --model DIR [--lora DIR] (--prompt TEXT | --messages FILE) [options]\n', flags: FLAGS };

function parseMessages(text: string, file: string): ChatMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not valid JSON (${(e as Error).message})`, 2);
  }
  const ok =
    Array.isArray(value) && value.length > 0 && value.every((m) => m && ['system', 'user', 'assistant'].includes(m.role) && typeof m.content === 'string');
  if (!ok) throw new CliError(`${file}: expected a non-empty JSON array of {"role": "system"|"user"|"assistant", "content": "..."}`, 2);
  return value as ChatMessage[];
}

/** The workflow format of --constrain workflow --workers N [--max-steps K], or undefined without --constrain. */
function workflowFormatOf(constrain: 'workflow' | undefined, workers: number | undefined, maxSteps: number | undefined): WorkflowFormat | undefined {
  if (constrain === undefined) {
    if (workers !== undefined || maxSteps !== undefined) throw new CliError('--workers and --max-steps apply to --constrain workflow only', 2);
    return undefined;
  }
  if (workers === undefined || workers < 1) throw new CliError('--constrain workflow needs --workers N (the pool size, at least 1)', 2);
  return { workers, ...(maxSteps === undefined ? {} : { maxSteps }) };
}

export async function generateCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  const choice = modelRefOf(values, io.cwd);
  if ((values.prompt === undefined) === (values.messages === undefined)) throw new CliError('give exactly one of --prompt TEXT and --messages FILE', 2);
  if (values.raw && values.messages !== undefined) throw new CliError('--raw applies to --prompt only', 2);
  const { n, temperature, seed } = values;
  const workflowFormat = workflowFormatOf(values.constrain, values.workers, values['max-steps']);
  const messages = values.messages === undefined ? undefined : parseMessages(await readTextFlag(io, 'messages', values.messages), values.messages);

  const loaded = await openNodeModel({ ...choice, withTokenizer: true });
  try {
    const tokenizer = loaded.tokenizer!;
    const policy = new EnginePolicy(loaded.model, tokenizer);
    const prompt = values.raw ? tokenizer.encode(values.prompt!) : (messages ?? [{ role: 'user' as const, content: values.prompt! }]);
    const tokens = workflowFormat ? tokenVocabOf(tokenizer, loaded.model.config.vocabSize) : undefined;
    const completions = await policy.generateGroup(prompt, {
      n,
      maxNewTokens: values['max-new-tokens'],
      sampling: { temperature, topK: values['top-k'], topP: values['top-p'], seed },
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
