export { loadTokenizer } from './tokenizer.ts';
export type { Tokenizer } from './tokenizer.ts';
export { createDecodeStream } from './decode-stream.ts';
export { QWEN_ADDED_TOKENS, QWEN_ENDOFTEXT, QWEN_IM_END, shrinkQwenTokenizer, shrunkQwenId } from './shrink-qwen-tokenizer.ts';
