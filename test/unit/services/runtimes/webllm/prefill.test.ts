import { describe, expect, it } from 'vitest';
import { PrefillEchoCutter, prefillAsInstruction } from '../../../../../src/services/runtimes/webllm/index.ts';
import type { ChatMessage } from '../../../../../src/core/providers/types.ts';

const PREFILL = 'Let us think step by step how to split this question.';
const conductorMessages: ChatMessage[] = [
  { role: 'system', content: 'You coordinate a team.' },
  { role: 'user', content: 'Question: 2+2?' },
  { role: 'assistant', content: PREFILL },
];

describe('prefillAsInstruction', () => {
  it('moves a trailing assistant prefill into the user message', () => {
    expect(prefillAsInstruction(conductorMessages)).toEqual({
      messages: [
        { role: 'system', content: 'You coordinate a team.' },
        { role: 'user', content: `Question: 2+2?\n\nBegin your reply with exactly these words, then go on: ${PREFILL}` },
      ],
      prefill: PREFILL,
    });
  });

  it('leaves messages without a prefill as they are, and drops an empty one', () => {
    expect(prefillAsInstruction(conductorMessages.slice(0, 2))).toEqual({ messages: conductorMessages.slice(0, 2) });
    expect(prefillAsInstruction([...conductorMessages.slice(0, 2), { role: 'assistant', content: ' ' }])).toEqual({ messages: conductorMessages.slice(0, 2) });
  });
});

function cut(prefill: string | undefined, pieces: string[]): { shown: string[]; text: string } {
  const cutter = new PrefillEchoCutter(prefill);
  const shown = [...pieces.map((p) => cutter.push(p)), cutter.flush()];
  return { shown, text: shown.join('') };
}

describe('PrefillEchoCutter', () => {
  it('cuts a repeated prefill split across deltas, holding text back only while it may be the prefill', () => {
    const { shown, text } = cut('Let us think', ['\nLet', ' us th', 'ink about', ' it.']);
    expect(text).toBe(' about it.');
    expect(shown).toEqual(['', '', ' about', ' it.', '']);
  });

  it('passes a reply that does not repeat the prefill through whole', () => {
    expect(cut('Let us think', ['Let', ' me see', ' now']).shown).toEqual(['', 'Let me see', ' now', '']);
    expect(cut(undefined, ['a', 'b']).shown).toEqual(['a', 'b', '']);
  });

  it('keeps a reply that ends inside the prefill', () => {
    expect(cut('Let us think', ['Let', ' us']).text).toBe('Let us');
  });
});
