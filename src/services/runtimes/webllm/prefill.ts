/**
 * web-llm cannot continue an assistant message: its chat API throws MessageOrderError unless the last
 * message is from the user (or a tool), and its text-completion API would need each model family's
 * chat template written out by hand, which cannot be checked here. So the Conductor's prefill moves
 * into the user message as an instruction to start the reply with those words, and the words are
 * cut from the front of the reply when the model repeats them, so the text Baton records is still
 * the continuation after the prefill.
 */
import type { ChatMessage } from '../../../core/providers/index.ts';

export interface PrefillAsInstruction {
  messages: ChatMessage[];
  /** The assistant prefill that was moved, if the messages ended with one. */
  prefill?: string;
}

export function prefillAsInstruction(messages: readonly ChatMessage[]): PrefillAsInstruction {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return { messages: [...messages] };
  const prefill = last.content.trim();
  const rest = messages.slice(0, -1);
  if (prefill === '') return { messages: rest };
  const instruction = `Begin your reply with exactly these words, then go on: ${prefill}`;
  const user = rest.at(-1);
  const moved: ChatMessage[] =
    user?.role === 'user'
      ? [...rest.slice(0, -1), { role: 'user', content: `${user.content}\n\n${instruction}` }]
      : [...rest, { role: 'user', content: instruction }];
  return { messages: moved, prefill };
}

/**
 * Streams a reply with a leading copy of the prefill removed. Text is held back only while it could
 * still be the prefill (ignoring leading whitespace); once it differs, everything is passed on.
 */
export class PrefillEchoCutter {
  readonly #prefill: string;
  #held = '';
  #decided = false;

  constructor(prefill: string | undefined) {
    this.#prefill = prefill ?? '';
    this.#decided = this.#prefill === '';
  }

  /** The part of the reply that can be shown now. */
  push(delta: string): string {
    if (this.#decided) return delta;
    this.#held += delta;
    const head = this.#held.trimStart();
    if (head.length < this.#prefill.length && this.#prefill.startsWith(head)) return '';
    this.#decided = true;
    const out = head.startsWith(this.#prefill) ? head.slice(this.#prefill.length) : this.#held;
    this.#held = '';
    return out;
  }

  /** Whatever is still held when the reply ends (a reply shorter than the prefill is kept whole). */
  flush(): string {
    const out = this.#held;
    this.#held = '';
    this.#decided = true;
    return out;
  }
}
