/**
 * Multiple-choice answers: a letter (`B`, `(B)`, `B)`, `**B**`, `\text{(B)}`, "Answer: B") or,
 * when the options are known, an option's own text. Letters are read from a marked answer or
 * from unmistakable forms only, never from a capital letter somewhere in the prose.
 */

/** The option letters in play: A-D, or as many as there are options. */
function letterRange(choices?: readonly string[]): string {
  const n = Math.min(26, Math.max(4, choices?.length ?? 0));
  return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, n);
}

const normalizeOption = (s: string) => s.toLowerCase().replace(/\$/g, '').replace(/\s+/g, ' ').trim().replace(/[.]$/, '');

/** The letter of the option whose text is exactly `text` (after light clean-up), or null. */
function optionLetter(text: string, choices?: readonly string[]): string | null {
  if (!choices) return null;
  const k = choices.findIndex((c) => normalizeOption(c) === normalizeOption(text));
  return k < 0 ? null : (letterRange(choices)[k] ?? null);
}

/** The letter a marked answer names: it starts with the letter, or holds one standalone letter. */
function letterOfMarked(answer: string, letters: string): string | null {
  const s = answer
    .replace(/\\text(?:bf)?\s*\{([^}]*)\}/g, '$1')
    .replace(/\*\*/g, '')
    .trim();
  const single = /^\(?([a-zA-Z])\)?$/.exec(s);
  if (single && letters.includes(single[1].toUpperCase())) return single[1].toUpperCase();
  const leading = new RegExp(`^(?:option\\s+|choice\\s+)?\\(?([${letters}])(?:\\)|[.:,]|\\s|$)`).exec(s);
  if (leading) return leading[1];
  const standalone = new Set([...s.matchAll(new RegExp(`(?<![A-Za-z'])\\(?([${letters}])\\)?(?![A-Za-z'])`, 'g'))].map((m) => m[1]));
  return standalone.size === 1 ? [...standalone][0] : null;
}

/** The letter of the last match among `patterns`, each capturing the letter in one of its groups. */
function lastLetter(text: string, patterns: RegExp[]): string | null {
  let best: { index: number; letter: string } | null = null;
  for (const pattern of patterns) {
    for (const m of text.matchAll(pattern)) {
      const letter = m.slice(1).find((g) => g !== undefined);
      if (letter && (!best || m.index > best.index)) best = { index: m.index, letter: letter.toUpperCase() };
    }
  }
  return best?.letter ?? null;
}

/**
 * The letter in unmarked prose: "the correct option is C", "option (c) is correct", a bold
 * letter, a response opening with `(B)` / `B.`, or nothing but a letter. A bare lower-case
 * letter is an article or a word, so it counts only inside parentheses or alone (`b`, `Option b`).
 */
function letterOfProse(response: string, letters: string): string | null {
  const letter = `(?:\\(([${letters}${letters.toLowerCase()}])\\)|([${letters}])\\b)`;
  const named = lastLetter(response, [
    new RegExp(`\\b(?:[Cc]orrect|[Rr]ight|[Bb]est)\\s+(?:[Oo]ption|[Cc]hoice|[Aa]nswer)\\s+is\\s*:?\\s*${letter}`, 'g'),
    new RegExp(`\\b(?:[Oo]ption|[Cc]hoice)\\s*${letter}\\s+is\\s+(?:the\\s+)?(?:correct|right|best)`, 'g'),
  ]);
  if (named) return named;
  const bold = [...response.matchAll(new RegExp(`\\*\\*\\s*\\(?([${letters}])\\)?\\s*(?:[.):]|\\*\\*)`, 'g'))];
  if (bold.length) return bold[bold.length - 1][1];
  const opening = new RegExp(`^\\s*(?:\\(([${letters}])\\)|([${letters}])[.):])(?:\\s|$)`).exec(response);
  if (opening) return opening[1] ?? opening[2];
  const only = new RegExp(`^\\s*(?:(?:option|choice)\\s+)?\\(?([${letters}])\\)?[.)]?\\s*$`, 'i').exec(response);
  return only ? only[1].toUpperCase() : null;
}

/**
 * The chosen letter: from `marked` (an answer block, box or closing phrase) when there is one,
 * else from `response` itself.
 */
export function extractChoice(marked: string | null, response: string, choices?: readonly string[]): string | null {
  const letters = letterRange(choices);
  if (marked !== null) return optionLetter(marked, choices) ?? letterOfMarked(marked, letters);
  return letterOfProse(response, letters) ?? optionLetter(response, choices);
}

/** The gold letter of a multiple-choice task, given as a letter or as an option's text. */
export function goldChoice(answer: string, choices?: readonly string[]): string | null {
  return optionLetter(answer, choices) ?? letterOfMarked(answer, letterRange(choices));
}
