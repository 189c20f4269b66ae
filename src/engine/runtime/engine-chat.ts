/**
 * One chat answered by a model on Baton's engine, as a pool worker answers: the messages through the model's
 * own chat template (a trailing assistant message continued as a prefill), sampled (greedily at temperature
 * 0) until end-of-sequence or the token budget, the text streamed through a decode stream, tokens counted.
 * Used by the Conductor's web worker and by the CLI alike.
 */
import type { LocalChatRequest, LocalGeneration } from '../../core/providers/index.ts';
import { createDecodeStream, type Tokenizer } from '../tokenizer/index.ts';
import type { GpuModel } from './gpu-model.ts';

interface EngineChatModel {
  model: GpuModel;
  tokenizer: Tokenizer;
}

export async function engineChat({ model, tokenizer }: EngineChatModel, request: LocalChatRequest): Promise<LocalGeneration> {
  const prefill = request.messages.at(-1)?.role === 'assistant';
  const prompt = tokenizer.encodeChat(request.messages, { continueFinal: prefill });
  const stopTokens = new Set(model.config.eosTokenIds);
  if (tokenizer.eosTokenId !== undefined) stopTokens.add(tokenizer.eosTokenId);
  // The answer ends where the model's context does.
  const maxNewTokens = Math.max(1, Math.min(request.maxTokens, model.config.maxPositionEmbeddings - prompt.length));
  const stream = createDecodeStream(tokenizer, { skipSpecialTokens: true });
  const sampling = request.temperature > 0 ? { temperature: request.temperature, seed: Math.floor(Math.random() * 2 ** 32) } : { temperature: 0 };
  const generation = await model.generate(prompt, {
    maxNewTokens,
    stopTokens: [...stopTokens],
    sampling,
    signal: request.signal,
    onToken(token) {
      const delta = stream.push(token);
      if (delta) request.onDelta?.(delta);
    },
  });
  const tail = stream.flush();
  if (tail) request.onDelta?.(tail);
  const { tokens, finishReason } = generation;
  const body = finishReason === 'stop' ? tokens.slice(0, -1) : tokens;
  return { text: tokenizer.decode(body, { skipSpecialTokens: true }), usage: { input: prompt.length, output: tokens.length }, finishReason };
}
