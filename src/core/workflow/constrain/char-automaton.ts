/**
 * A deterministic automaton over UTF-16 code units: the character-level half of a constraint. The
 * token-level half (token-constraint.ts) walks every token's text through it.
 */
export interface CharAutomaton<S> {
  start(): S;
  /** The state after one more code unit, or undefined when no accepted text continues that way. */
  step(state: S, code: number): S | undefined;
  /** Whether the text so far may end here (end-of-sequence is allowed). */
  accepts(state: S): boolean;
  /**
   * A string equal for two states exactly when every text of at most `horizon` code units leads both
   * to the same verdicts; it keys the cache of token masks. Counters that only matter near a limit
   * (a subtask's length) may be folded together while the limit is more than `horizon` away.
   */
  key(state: S, horizon: number): string;
  /**
   * Optional shortcut for states inside free text: a key shared by states that treat every text free
   * of the code units in `barrier` alike (within `horizon`), so the masks of such tokens are cached by
   * it, and only the few tokens holding a barrier unit are walked per state.
   */
  localKey?(state: S, horizon: number): { key: string; barrier: string } | undefined;
}

/** The state after `text`, or undefined if the automaton rejects it somewhere. */
export function walkText<S>(automaton: CharAutomaton<S>, state: S, text: string): S | undefined {
  let s: S | undefined = state;
  for (let i = 0; i < text.length && s !== undefined; i++) s = automaton.step(s, text.charCodeAt(i));
  return s;
}
