/**
 * Reading plain numbers out of prose, the way GSM8K-style answers are written: `$1,234.50`,
 * `-7`, `3/4`, `12%`. Thousands separators and currency signs are not part of the value.
 */

const NUMBER = /-?(?:\$\s?)?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\/\d+)?|-?\.\d+/g;

/** The value of a number token, or null (`1,234.5` -> 1234.5, `3/4` -> 0.75). */
export function parseNumber(token: string): number | null {
  const cleaned = token
    .replace(/\\\$/g, '')
    .replace(/−/g, '-')
    .replace(/[$,\s]/g, '');
  const m = /^(-?(?:\d+(?:\.\d*)?|\.\d+))(?:\/(\d+(?:\.\d*)?))?%?$/.exec(cleaned);
  if (!m) return null;
  const value = m[2] === undefined ? Number(m[1]) : Number(m[1]) / Number(m[2]);
  return Number.isFinite(value) ? value : null;
}

/** Every number token of `text`, in order of appearance. */
export function numberTokens(text: string): string[] {
  return [...text.replace(/\\\$/g, '$').replace(/−/g, '-').matchAll(NUMBER)].map((m) => m[0]);
}

/** The last number in `text` (the GSM8K fallback when no answer is marked), or null. */
export function lastNumber(text: string): string | null {
  const tokens = numberTokens(text);
  return tokens.length ? tokens[tokens.length - 1] : null;
}

/**
 * A plain decimal numeral in one canonical form (`07.50` -> `7.5`, `-0` -> `0`), or null for anything
 * else. Two numerals name the same number exactly when their forms are equal, at any length.
 */
export function canonicalDecimal(text: string): string | null {
  const m = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === '' && !m[3])) return null;
  const whole = m[2].replace(/^0+/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (whole === '' && fraction === '') return '0';
  return `${m[1] === '-' ? '-' : ''}${whole || '0'}${fraction ? `.${fraction}` : ''}`;
}

/** `$1,200` -> `1200`: a number token without currency sign and thousands separators; other text as it is. */
export function plainNumber(text: string): string {
  const cleaned = text
    .replace(/\\\$/g, '')
    .replace(/−/g, '-')
    .replace(/[$,\s]/g, '');
  return /^-?(?:\d+(?:\.\d+)?|\.\d+)$/.test(cleaned) ? cleaned : text;
}
