/**
 * A character automaton lifted to tokens: for a state, the bitmask of token ids whose text it accepts
 * (plus end-of-sequence ids where the text may end), cached by the automaton's state key, since the
 * states of a long generation repeat (free text, a subtask's middle). Tokens holding part of a
 * character are taken only where they keep the text valid UTF-8 (whole-characters.ts).
 */
import { BatonError } from '../../errors/index.ts';
import { walkText, type CharAutomaton } from './char-automaton.ts';
import { markAcceptedTokens, sortVocab, type SortedVocab } from './sorted-vocab.ts';
import { byteState, characterEnding, InsideCharacter, partsOf, wholeCharacters, type ByteState } from './whole-characters.ts';

export interface TokenVocab {
  /**
   * The text of every token id, decoded alone, with each byte that is not part of a whole character
   * escaped (textOfBytes); '' for ids that must never be sampled (control tokens). Keep the array
   * unchanged: constraints built on the same array share its sorted form.
   */
  vocab: readonly string[];
  /** End-of-sequence ids: allowed exactly where the text may end. */
  eosIds: readonly number[];
}

export interface TokenConstraint<S> {
  /** Ids 0 .. vocabSize - 1; a mask has ceil(vocabSize / 32) words. */
  readonly vocabSize: number;
  start(): S;
  /**
   * Which tokens may come next: bit (id & 31) of word (id >> 5) is set for an allowed id. The array is
   * cached and shared: read it, do not change it. All zero after end-of-sequence.
   * `remaining`, the tokens still allowed this one included, lets the text finish in time: once it
   * runs short (see FINISH_MARGIN), only tokens after which a shortest way to an accepted end (and
   * end-of-sequence) still fits are allowed, so a generation cut by its token budget still ends with a
   * complete text, and every choice that fits stays open until then.
   */
  mask(state: S, remaining?: number): Uint32Array;
  isAllowed(state: S, tokenId: number): boolean;
  /**
   * Whether the tokens mask(state, remaining) allows begin with more than one character (end of
   * sequence counting as one of its own): a choice of what the text says, not only of how the
   * same text is split into tokens.
   */
  offersChoice(state: S, remaining?: number): boolean;
  /** The state after `tokenId`; throws a BatonError ('data/invalid') if the mask forbids it. */
  advance(state: S, tokenId: number): S;
  /**
   * The tokens that spell the text `state` leaves no choice in (each next character the only one the
   * format allows), in as few tokens as the vocabulary allows, then end-of-sequence where nothing else may come;
   * empty where the next token is a choice. Decoding feeds them without sampling (jump-forward): a
   * plan's fixed parts cost a few forward passes instead of one per token, and are spelled the way a
   * tokenizer would rather than in whatever pieces an untrained model samples.
   */
  forced?(state: S, remaining?: number): number[];
  /**
   * The tokens constrained decoding writes for `text` from `state` when every choice it makes keeps to
   * that text: the text the format leaves no choice in spelled as forced() spells it, each choice the
   * first token of the fewest-token spelling of the rest where allowed (else the longest allowed token
   * that keeps to it), then end-of-sequence. Undefined where the format does not allow the text, or
   * `remaining` tokens cannot hold it. How a plan chosen for the Conductor (every plan of a group,
   * rollout.ts) is written as it would have written it.
   */
  spell(state: S, text: string, remaining?: number): number[] | undefined;
  /** Whether the text so far is complete (end-of-sequence allowed). */
  isAccepting(state: S): boolean;
  /** Whether end-of-sequence has been taken: nothing may follow. */
  isFinished(state: S): boolean;
}

/** Masks kept per constraint; a Conductor's generation touches far fewer distinct states. */
const CACHE_SIZE = 512;

/** Longest shortest-completion searched for: the format's longest way to its end from any state is far below. */
const MAX_COMPLETION = 256;

/**
 * Slack beyond a shortest completion below which each token is checked to fit. One token lengthens the
 * shortest completion by at most this much (a workflow token adds at most a few model ids, each
 * wanting about ten more characters), so above it every allowed token fits and none needs checking.
 */
const FINISH_MARGIN = 64;

/** A position in a constrained generation: the automaton state, and whether end-of-sequence was taken. */
export interface ConstrainedState<S> {
  readonly chars: S;
  /** Where the bytes stand: 0 between characters, else inside one (whole-characters.ts). */
  readonly utf8: number;
  readonly finished: boolean;
}

export function createTokenConstraint<S>(charAutomaton: CharAutomaton<S>, tokens: TokenVocab): TokenConstraint<ConstrainedState<S>> {
  const automaton = wholeCharacters(charAutomaton);
  const vocabSize = tokens.vocab.length;
  const eos = new Set(tokens.eosIds);
  for (const id of eos) {
    if (!(Number.isInteger(id) && id >= 0 && id < vocabSize)) {
      throw new BatonError({
        code: 'data/invalid',
        message: `End-of-sequence id ${id} is outside the vocabulary (0..${vocabSize - 1}); pass the tokenizer's ids.`,
      });
    }
  }
  if (eos.size === 0) {
    throw new BatonError({
      code: 'data/invalid',
      message: 'A constraint needs at least one end-of-sequence id, or generation could never stop.',
    });
  }
  const prepared = prepareVocab(tokens.vocab, eos);
  const horizon = prepared.everyToken.longest;
  const words = Math.ceil(vocabSize / 32);
  const none = new Uint32Array(words);
  const masks = new LruCache<Uint32Array>(CACHE_SIZE);
  const localMasks = new LruCache<Uint32Array>(CACHE_SIZE);
  const completions = new LruCache<string | null>(CACHE_SIZE);
  const needs = new LruCache<{ need: number; mask: Uint32Array }[]>(CACHE_SIZE);
  const spellings = new LruCache<number>(CACHE_SIZE);
  const forcedUnits = new LruCache<number>(CACHE_SIZE);
  const tokensByText = prepared.byText;
  // A shortest completion is spelled with one-character ASCII tokens (the format is ASCII), so each of
  // its characters costs at most one token.
  const alphabet = [...tokensByText.keys()].filter((t) => t.length === 1 && t.charCodeAt(0) < 128).map((t) => t.charCodeAt(0));

  /**
   * The shortest text taking `s` to an accepted end (breadth-first over one-character tokens), or null
   * past MAX_COMPLETION. Inside a character, the bytes that end it come first: every ending leads to the
   * same state (the automaton reads each byte as U+FFFD), so the first one will do.
   */
  function shortestCompletion(s: ByteState<S>): string | null {
    if (s instanceof InsideCharacter) {
      const ending = characterEnding(s);
      const after = ending === undefined ? undefined : walkText(automaton, s, ending);
      const rest = after === undefined ? null : shortestCompletion(after);
      return rest === null ? null : ending + rest;
    }
    const key = automaton.key(s, MAX_COMPLETION);
    const cached = completions.get(key);
    if (cached !== undefined) return cached;
    let found: string | null = null;
    let frontier: { s: ByteState<S>; text: string }[] = [{ s, text: '' }];
    const seen = new Set([key]);
    for (let depth = 0; depth <= MAX_COMPLETION && frontier.length > 0 && found === null; depth++) {
      const next: { s: ByteState<S>; text: string }[] = [];
      for (const node of frontier) {
        if (automaton.accepts(node.s)) {
          found = node.text;
          break;
        }
        for (const code of alphabet) {
          const after = automaton.step(node.s, code);
          if (after === undefined) continue;
          const k = automaton.key(after, MAX_COMPLETION);
          if (seen.has(k)) continue;
          seen.add(k);
          next.push({ s: after, text: node.text + String.fromCharCode(code) });
        }
      }
      frontier = next;
    }
    completions.set(key, found);
    return found;
  }

  /** The fewest tokens that spell `text` (each of its characters is a token, so at most its length). */
  function tokensToSpell(text: string): number {
    const cached = spellings.get(text);
    if (cached !== undefined) return cached;
    const fewest = [0];
    for (let end = 1; end <= text.length; end++) {
      let best = Infinity;
      for (let start = Math.max(0, end - horizon); start < end; start++) {
        if (fewest[start] + 1 < best && tokensByText.has(text.slice(start, end))) best = fewest[start] + 1;
      }
      fewest.push(best);
    }
    spellings.set(text, fewest[text.length]);
    return fewest[text.length];
  }

  /**
   * The allowed tokens of `s` grouped by how many tokens the text needs after them to end (the
   * shortest completion spelled in the fewest tokens, then end-of-sequence), fewest first. Tokens with
   * no completion in reach are left out.
   */
  function tokensByNeed(s: ByteState<S>): { need: number; mask: Uint32Array }[] {
    const key = automaton.key(s, horizon + MAX_COMPLETION);
    const cached = needs.get(key);
    if (cached) return cached;
    const groups = new Map<number, Uint32Array>();
    const allowed = maskOf(s);
    for (let w = 0; w < words; w++) {
      for (let bits = allowed[w]; bits !== 0; bits &= bits - 1) {
        const id = (w << 5) | (31 - Math.clz32(bits & -bits));
        let need = 0;
        if (!eos.has(id)) {
          const after = walkText(automaton, s, tokens.vocab[id]);
          const completion = after === undefined ? null : shortestCompletion(after);
          if (completion === null) continue;
          need = tokensToSpell(completion) + 1;
        }
        let mask = groups.get(need);
        if (!mask) groups.set(need, (mask = new Uint32Array(words)));
        mask[w] |= 1 << (id & 31);
      }
    }
    const byNeed = [...groups].sort((a, b) => a[0] - b[0]).map(([need, mask]) => ({ need, mask }));
    needs.set(key, byNeed);
    return byNeed;
  }

  /** The allowed tokens after which the text can still end within `remaining - 1` more tokens. */
  function fittingMask(s: ByteState<S>, remaining: number, completion: string): Uint32Array {
    const mask = new Uint32Array(words);
    for (const group of tokensByNeed(s)) {
      if (group.need > remaining - 1) break;
      for (let w = 0; w < words; w++) mask[w] |= group.mask[w];
    }
    // A budget below even the shortest completion: spell it with the tokens that fit it, the nearest
    // the text can come to an end.
    return mask.some((word) => word !== 0) ? mask : finishingMask(completion);
  }

  /** The tokens that spell a prefix of `completion` (end-of-sequence for an empty one). */
  function finishingMask(completion: string): Uint32Array {
    const mask = new Uint32Array(words);
    const ids = completion === '' ? [...eos] : Array.from({ length: completion.length }, (_, i) => tokensByText.get(completion.slice(0, i + 1)) ?? []).flat();
    for (const id of ids) mask[id >>> 5] |= 1 << (id & 31);
    return mask;
  }

  /** The one code unit the format allows after `s` (-1 for none or several, or where the text may end). */
  function forcedUnit(s: ByteState<S>): number {
    if (automaton.accepts(s)) return -1;
    const key = automaton.key(s, 1);
    const cached = forcedUnits.get(key);
    if (cached !== undefined) return cached;
    let only = -1;
    for (const unit of prepared.units) {
      if (automaton.step(s, unit) === undefined) continue;
      if (only >= 0) {
        only = -1;
        break;
      }
      only = unit;
    }
    forcedUnits.set(key, only);
    return only;
  }

  /** For each start in `text`, the ids that spell text[start..] in the fewest tokens: the first such token, or -1. */
  function fewestSpelling(text: string): Int32Array {
    const fewest = new Float64Array(text.length + 1).fill(Infinity);
    const first = new Int32Array(text.length + 1).fill(-1);
    fewest[text.length] = 0;
    for (let start = text.length - 1; start >= 0; start--) {
      for (let end = Math.min(text.length, start + horizon); end > start; end--) {
        const id = tokensByText.get(text.slice(start, end))?.[0];
        if (id !== undefined && fewest[end] + 1 < fewest[start]) {
          fewest[start] = fewest[end] + 1;
          first[start] = id;
        }
      }
    }
    return first;
  }

  /** The token spelling text[at..] from its start: the fewest-tokens spelling's where `mask` allows it, else the longest allowed. */
  function spellingToken(text: string, at: number, best: Int32Array, mask: Uint32Array): number | undefined {
    const allows = (id: number) => ((mask[id >>> 5] >>> (id & 31)) & 1) === 1;
    if (best[at] >= 0 && allows(best[at])) return best[at];
    for (let end = Math.min(text.length, at + horizon); end > at; end--) {
      const id = tokensByText.get(text.slice(at, end))?.find(allows);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  function maskOf(s: ByteState<S>): Uint32Array {
    const key = automaton.key(s, horizon);
    let mask = masks.get(key);
    if (mask) return mask;
    mask = new Uint32Array(words);
    const local = automaton.localKey?.(s, horizon);
    if (local) {
      const parts = prepared.split(local.barrier);
      let within = localMasks.get(local.key);
      if (!within) {
        within = new Uint32Array(words);
        markAcceptedTokens(parts.within, automaton, s, within);
        localMasks.set(local.key, within);
      }
      mask.set(within);
      markAcceptedTokens(parts.across, automaton, s, mask);
    } else {
      markAcceptedTokens(prepared.everyToken, automaton, s, mask);
    }
    if (automaton.accepts(s)) for (const id of eos) mask[id >>> 5] |= 1 << (id & 31);
    masks.set(key, mask);
    return mask;
  }

  const constraint: TokenConstraint<ConstrainedState<S>> = {
    vocabSize,
    start: () => ({ chars: charAutomaton.start(), utf8: 0, finished: false }),
    mask(state, remaining = Infinity) {
      if (state.finished) return none;
      const s = byteState(state.chars, state.utf8);
      if (remaining <= MAX_COMPLETION + FINISH_MARGIN) {
        const completion = shortestCompletion(s);
        if (completion !== null && remaining <= completion.length + FINISH_MARGIN) return fittingMask(s, remaining, completion);
      }
      return maskOf(s);
    },
    isAllowed: (state, id) => next(state, id) !== undefined,
    offersChoice(state, remaining) {
      const mask = constraint.mask(state, remaining);
      let first: number | undefined;
      for (let w = 0; w < words; w++) {
        for (let bits = mask[w]; bits !== 0; bits &= bits - 1) {
          const id = (w << 5) | (31 - Math.clz32(bits & -bits));
          const char = eos.has(id) ? -1 : tokens.vocab[id].charCodeAt(0);
          if (first === undefined) first = char;
          else if (char !== first) return true;
        }
      }
      return false;
    },
    advance(state, id) {
      const after = next(state, id);
      if (after === undefined) {
        throw new BatonError({
          code: 'data/invalid',
          message: `Token ${id} (${JSON.stringify(tokens.vocab[id] ?? '')}) is not allowed here; sample from the constraint's mask.`,
        });
      }
      return after;
    },
    forced,
    spell(state, text, remaining = Infinity) {
      const best = fewestSpelling(text);
      const ids: number[] = [];
      let s = state;
      let at = 0;
      while (!s.finished) {
        const left = remaining - ids.length;
        if (left <= 0) return undefined;
        const fixed = forced(s, left);
        const chosen = () =>
          at < text.length ? spellingToken(text, at, best, constraint.mask(s, left)) : constraint.isAccepting(s) ? tokens.eosIds[0] : undefined;
        const step = fixed.length > 0 ? fixed : [chosen()];
        for (const id of step) {
          if (id === undefined || !(eos.has(id) ? at === text.length : text.startsWith(tokens.vocab[id], at))) return undefined;
          s = constraint.advance(s, id);
          ids.push(id);
          if (!eos.has(id)) at += tokens.vocab[id].length;
        }
      }
      return ids;
    },
    isAccepting: (state) => !state.finished && automaton.accepts(byteState(state.chars, state.utf8)),
    isFinished: (state) => state.finished,
  };

  /** See TokenConstraint.forced. */
  function forced(state: ConstrainedState<S>, remaining = Infinity): number[] {
    // Inside a character (a token held part of it) is free text: nothing is forced there.
    if (state.finished || state.utf8 !== 0) return [];
    let text = '';
    for (let s = byteState(state.chars, state.utf8), unit = forcedUnit(s); unit >= 0 && text.length < MAX_COMPLETION; unit = forcedUnit(s)) {
      text += String.fromCharCode(unit);
      s = automaton.step(s, unit)!;
    }
    const best = fewestSpelling(text);
    const ids: number[] = [];
    let s = state;
    for (let at = 0, left = remaining; left > 0; left--) {
      const mask = constraint.mask(s, left);
      const id = at < text.length ? spellingToken(text, at, best, mask) : onlyEos(mask);
      if (id === undefined) break;
      ids.push(id);
      if (eos.has(id)) break;
      s = constraint.advance(s, id);
      at += tokens.vocab[id].length;
    }
    return ids;
  }

  /** The first end-of-sequence id when the mask allows nothing else, else undefined. */
  function onlyEos(mask: Uint32Array): number | undefined {
    let first: number | undefined;
    for (let w = 0; w < words; w++) {
      for (let bits = mask[w]; bits !== 0; bits &= bits - 1) {
        const id = (w << 5) | (31 - Math.clz32(bits & -bits));
        if (!eos.has(id)) return undefined;
        first ??= id;
      }
    }
    return first;
  }

  // The same verdict as the mask's bit, from one token's walk rather than the whole vocabulary's.
  function next(state: ConstrainedState<S>, id: number): ConstrainedState<S> | undefined {
    if (state.finished) return undefined;
    return eos.has(id) ? acceptEos(state) : walkToken(byteState(state.chars, state.utf8), id);
  }

  function acceptEos(state: ConstrainedState<S>): ConstrainedState<S> | undefined {
    return constraint.isAccepting(state) ? { ...state, finished: true } : undefined;
  }

  function walkToken(s: ByteState<S>, id: number): ConstrainedState<S> | undefined {
    const text = tokens.vocab[id];
    if (!text) return undefined;
    const after = walkText(automaton, s, text);
    return after === undefined ? undefined : { ...partsOf(after), finished: false };
  }

  return constraint;
}

/** Token ids by their text (several ids may share one), end-of-sequence ids and empty texts left out. */
function textIndex(vocab: readonly string[], eos: ReadonlySet<number>): Map<string, number[]> {
  const index = new Map<string, number[]>();
  vocab.forEach((text, id) => {
    if (!text || eos.has(id)) return;
    const ids = index.get(text);
    if (ids) ids.push(id);
    else index.set(text, [id]);
  });
  return index;
}

interface PreparedVocab {
  /** Every token but end-of-sequence ones, sorted. */
  readonly everyToken: SortedVocab;
  /** The same tokens' ids by their text. */
  readonly byText: ReadonlyMap<string, number[]>;
  /** Every code unit those texts hold, once. */
  readonly units: readonly number[];
  /** Those tokens split by whether they hold one of `barrier`'s code units. */
  split(barrier: string): { within: SortedVocab; across: SortedVocab };
}

/** Sorting 151k texts takes a while: constraints over the same vocabulary array (other pools, other formats) share it. */
const preparedVocabs = new WeakMap<readonly string[], Map<string, PreparedVocab>>();

function prepareVocab(vocab: readonly string[], eos: ReadonlySet<number>): PreparedVocab {
  const eosKey = [...eos].sort((a, b) => a - b).join(',');
  let byEos = preparedVocabs.get(vocab);
  if (!byEos) preparedVocabs.set(vocab, (byEos = new Map()));
  let prepared = byEos.get(eosKey);
  if (prepared) return prepared;
  const sampled = (id: number) => !eos.has(id);
  const splits = new Map<string, { within: SortedVocab; across: SortedVocab }>();
  prepared = {
    everyToken: sortVocab(vocab, sampled),
    byText: textIndex(vocab, eos),
    units: codeUnits(vocab, sampled),
    split(barrier) {
      let parts = splits.get(barrier);
      if (!parts) {
        const crosses = (id: number) => [...barrier].some((ch) => vocab[id].includes(ch));
        parts = {
          within: sortVocab(vocab, (id) => sampled(id) && !crosses(id)),
          across: sortVocab(vocab, (id) => sampled(id) && crosses(id)),
        };
        splits.set(barrier, parts);
      }
      return parts;
    },
  };
  byEos.set(eosKey, prepared);
  return prepared;
}

function codeUnits(vocab: readonly string[], include: (id: number) => boolean): number[] {
  const units = new Set<number>();
  vocab.forEach((text, id) => {
    if (include(id)) for (let i = 0; i < text.length; i++) units.add(text.charCodeAt(i));
  });
  return [...units];
}

/** A map that forgets its least recently used entry beyond `size` entries. */
class LruCache<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly size: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key); // most recently used goes last
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.#entries.size >= this.size) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, value);
  }
}
