/**
 * Qwen's byte-level BPE tokenizer cut to `vocab` ids in all, for tiny models (tests, the demo Conductor):
 * its first vocab - 26 tokens (the 256 single bytes come first, so any text still encodes), the merges
 * among them, and Qwen3's 26 added tokens (<|endoftext|>, <|im_start|>, ..., </think>) renumbered to the top
 * ids. The chat template is unchanged. Takes and returns the parsed tokenizer.json / tokenizer_config.json.
 */

/** Qwen3 numbers its added tokens from <|endoftext|> on, 26 of them. */
export const QWEN_ENDOFTEXT = 151643;
export const QWEN_IM_END = 151645;
export const QWEN_ADDED_TOKENS = 26;

/** Where Qwen3's added token `qwenId` lands in a tokenizer shrunk to `vocab` ids. */
export function shrunkQwenId(qwenId: number, vocab: number): number {
  return vocab - QWEN_ADDED_TOKENS + (qwenId - QWEN_ENDOFTEXT);
}

type Json = Record<string, unknown>;

export function shrinkQwenTokenizer(tokenizerJson: Json, tokenizerConfig: Json, vocab: number): { json: Json; config: Json } {
  const regular = vocab - QWEN_ADDED_TOKENS;
  if (regular < 256) throw new RangeError(`a small tokenizer needs vocab >= ${256 + QWEN_ADDED_TOKENS}, got ${vocab}`);
  const json = structuredClone(tokenizerJson) as { model: { vocab: Record<string, number>; merges: (string | string[])[] }; added_tokens: { id: number }[] };
  const config = structuredClone(tokenizerConfig) as { added_tokens_decoder: Record<string, unknown> };
  const kept: Record<string, number> = {};
  for (const [token, id] of Object.entries(json.model.vocab)) if (id < regular) kept[token] = id;
  const pair = (m: string | string[]) => (typeof m === 'string' ? m.split(' ') : m);
  json.model.vocab = kept;
  // Object.hasOwn, not `in`: a merge making "toString" must not pass for a token through Object.prototype.
  const has = (token: string) => Object.hasOwn(kept, token);
  json.model.merges = json.model.merges.filter((m) => {
    const [a, b] = pair(m);
    return has(a) && has(b) && has(a + b);
  });
  const renumber = (id: number) => shrunkQwenId(id, vocab);
  for (const t of json.added_tokens) t.id = renumber(t.id);
  config.added_tokens_decoder = Object.fromEntries(Object.entries(config.added_tokens_decoder).map(([id, t]) => [String(renumber(Number(id))), t]));
  return { json: json as unknown as Json, config: config as unknown as Json };
}
