/**
 * `baton logprobs`: the exact log-probability of each token of a sequence given the ones before it,
 * from Baton's engine (WebGPU; Dawn under Node), with an optional LoRA adapter. Prints one JSON line
 * {"tokens":[...],"logprobs":[...]} where logprobs[i] = log p(tokens[i+1] | tokens[0..i]).
 */
import { CliError, num, parseFlags, positive, printHelp, readTextFlag, text, type CliIo } from '../cli/index.ts';
import { MODEL_FLAGS, modelRefOf, openNodeModel } from '../models/index.ts';

const FLAGS = {
  ...MODEL_FLAGS,
  ids: text({ arg: 'FILE', help: 'token ids: a JSON array or whitespace-separated integers ("-" reads stdin)' }),
  text: text({ arg: 'TEXT', help: "text, tokenised with the model's tokenizer" }),
  temperature: num({ arg: 'T', help: 'divide logits by T first, as GRPO does', default: 1, check: positive }),
};

const HELP = {
  usage: `usage: baton logprobs --model DIR [--lora DIR] (--ids FILE | --text TEXT) [--weights f32|f16|int4] [--temperature T]

Prints {"tokens":[...],"logprobs":[...]}: logprobs[i] = log p(tokens[i+1] | tokens[0..i]).
`,
  flags: FLAGS,
};

/** Token ids from a JSON array or whitespace-separated integers. */
function parseIds(text: string, source: string): number[] {
  const trimmed = text.trim();
  const values: unknown[] = trimmed.startsWith('[') ? safeJson(trimmed, source) : trimmed.split(/\s+/).filter(Boolean).map(Number);
  if (!values.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
    throw new CliError(`${source}: token ids must be non-negative integers (a JSON array or whitespace-separated).`, 2);
  }
  return values as number[];
}

function safeJson(text: string, source: string): unknown[] {
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v)) return v;
  } catch {
    // reported below
  }
  throw new CliError(`${source}: not a JSON array of token ids.`, 2);
}

export async function logprobsCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  const choice = modelRefOf(values, io.cwd);
  if ((values.ids === undefined) === (values.text === undefined)) throw new CliError('give exactly one of --ids FILE and --text TEXT', 2);
  let ids: number[] | undefined;
  if (values.ids !== undefined) {
    const text = await readTextFlag(io, 'ids', values.ids, { stdin: true });
    ids = parseIds(text, values.ids === '-' ? 'stdin' : values.ids);
  }

  const loaded = await openNodeModel({ ...choice, withTokenizer: ids === undefined });
  try {
    const tokens = ids ?? loaded.tokenizer!.encode(values.text!);
    if (tokens.length < 2) throw new CliError('need at least two tokens: a context and one token to score', 2);
    const logprobs = await loaded.model.logprobs(tokens, { temperature: values.temperature });
    io.stdout(`${JSON.stringify({ tokens, logprobs: Array.from(logprobs) })}\n`);
    return 0;
  } finally {
    loaded.close();
  }
}
