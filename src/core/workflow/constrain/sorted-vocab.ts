/**
 * The vocabulary as a trie laid flat: token texts in sorted order, each with the length of the prefix it
 * shares with the one before. Walking tokens in this order and reusing the automaton states of the shared
 * prefix visits each trie node once, and a prefix the automaton rejects skips every token under it.
 */
import type { CharAutomaton } from './char-automaton.ts';

export interface SortedVocab {
  /** Token ids in the order of their texts. */
  readonly ids: Uint32Array;
  readonly texts: readonly string[];
  /** lcp[k]: code units texts[k] shares with texts[k - 1] (0 for k = 0). */
  readonly lcp: Uint32Array;
  /** The longest text, in code units. */
  readonly longest: number;
}

/** Sorts the ids of `vocab` that `include` picks (never those with empty texts) by their texts. */
export function sortVocab(vocab: readonly string[], include: (id: number) => boolean): SortedVocab {
  const order: number[] = [];
  for (let id = 0; id < vocab.length; id++) if (vocab[id] !== '' && include(id)) order.push(id);
  order.sort((a, b) => (vocab[a] < vocab[b] ? -1 : vocab[a] > vocab[b] ? 1 : a - b));
  const texts = order.map((id) => vocab[id]);
  const lcp = new Uint32Array(order.length);
  let longest = 0;
  for (let k = 0; k < texts.length; k++) {
    longest = Math.max(longest, texts[k].length);
    if (k > 0) lcp[k] = sharedPrefix(texts[k - 1], texts[k]);
  }
  return { ids: Uint32Array.from(order), texts, lcp, longest };
}

function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Sets in `mask` (a bitmask over token ids) the bit of every token whose whole text `automaton` accepts from `state`. */
export function markAcceptedTokens<S>(vocab: SortedVocab, automaton: CharAutomaton<S>, state: S, mask: Uint32Array): void {
  const { ids, texts, lcp } = vocab;
  const states: S[] = [state]; // states[d]: after the first d code units of the current text
  let reached = 0; // code units of the previous text the automaton accepted
  let rejected = false; // whether it rejected the unit after those
  for (let k = 0; k < texts.length; k++) {
    if (rejected && lcp[k] > reached) continue; // shares the rejected prefix
    const text = texts[k];
    let d = Math.min(lcp[k], reached);
    let s = states[d];
    while (d < text.length) {
      const next = automaton.step(s, text.charCodeAt(d));
      if (next === undefined) break;
      s = next;
      states[++d] = s;
    }
    reached = d;
    rejected = d < text.length;
    if (!rejected) mask[ids[k] >>> 5] |= 1 << (ids[k] & 31);
  }
}
