/**
 * Tracks how much of a thinking tag (`<think>`, `</think>`, `<thinking>`, `</thinking>`, any letter
 * case) the text has just written, because parseWorkflow drops thinking before it reads the lists
 * (src/core/workflow/strip-thinking.ts): a tag in the wrong place would hide the workflow.
 * A progress is a small integer: 0 = no tag under way.
 */
const TAGS = ['<think>', '<thinking>', '</think>', '</thinking>'];

const PREFIXES: string[] = [''];
for (const tag of TAGS) {
  for (let i = 1; i <= tag.length; i++) if (!PREFIXES.includes(tag.slice(0, i))) PREFIXES.push(tag.slice(0, i));
}

const LT = 0x3c;
const OPEN_AFTER_LT = PREFIXES.indexOf('<');

/** NEXT[p * 128 + c]: the progress after ASCII code c at progress p. */
const NEXT = new Uint8Array(PREFIXES.length * 128);
for (let p = 0; p < PREFIXES.length; p++) {
  for (let c = 0; c < 128; c++) {
    const q = PREFIXES.indexOf(PREFIXES[p] + String.fromCharCode(c).toLowerCase());
    NEXT[p * 128 + c] = q >= 0 ? q : c === LT ? OPEN_AFTER_LT : 0;
  }
}

export function stepTag(progress: number, code: number): number {
  return code < 128 ? NEXT[progress * 128 + code] : 0;
}

const COMPLETED = PREFIXES.map((p) => (!p.endsWith('>') ? undefined : p[1] === '/' ? 'close' : 'open'));

/** 'open' or 'close' when the progress is a whole tag just written, else undefined. */
export function completedTag(progress: number): 'open' | 'close' | undefined {
  return COMPLETED[progress];
}
