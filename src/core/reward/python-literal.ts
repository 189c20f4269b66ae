/**
 * Python literals (`[(4, 1), 'a\n']`, `{'x': 1.5}`, `True`, `b'ok'`) read into values, and Python's `==`
 * between them: what `assert f(x) == <literal>` checks, as CRUXEval's output prediction asks. So `1 == 1.0
 * == True` and `{'a', 'b'} == {'b', 'a'}`, but a list never equals a tuple and `'1'` never equals `1`.
 */

export type PyValue =
  | { type: 'int'; value: bigint }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'none' }
  | { type: 'str' | 'bytes'; value: string }
  | { type: 'list' | 'tuple' | 'set'; items: PyValue[] }
  | { type: 'dict'; entries: [PyValue, PyValue][] };

class NotALiteral extends Error {}

const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** The characters a non-raw string's escapes stand for; unknown escapes keep their backslash, as in Python. */
function unescape(body: string): string {
  return body.replace(/\\(\r?\n|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (whole, e: string) => {
    if (e.startsWith('\n') || e.startsWith('\r')) return '';
    if (e in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[e];
    if (/^[0-7]/.test(e)) return String.fromCodePoint(parseInt(e, 8));
    if (/^[xuU]./.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    return whole;
  });
}

/** A set member or dict key: Python raises TypeError for a list, dict or set (inside a tuple too). */
function hashable(v: PyValue): PyValue {
  if (v.type === 'list' || v.type === 'dict' || v.type === 'set') throw new NotALiteral();
  if (v.type === 'tuple') v.items.forEach(hashable);
  return v;
}

class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    this.space();
    return this.i >= this.s.length;
  }

  private space(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  private eat(token: string): boolean {
    this.space();
    if (!this.s.startsWith(token, this.i)) return false;
    this.i += token.length;
    return true;
  }

  value(): PyValue {
    this.space();
    const c = this.s[this.i];
    if (c === '(') return this.group();
    if (c === '[') {
      this.i++;
      return { type: 'list', items: this.list(']', () => this.value()).items };
    }
    if (c === '{') return this.braces();
    if (c === '-' || c === '+') return this.signed();
    const str = this.strings();
    if (str) return str;
    const word = /^(True|False|None|set\(\s*\))(?![\w(])/.exec(this.s.slice(this.i));
    if (word) {
      this.i += word[0].length;
      if (word[1] === 'None') return { type: 'none' };
      if (word[1].startsWith('set')) return { type: 'set', items: [] };
      return { type: 'bool', value: word[1] === 'True' };
    }
    return this.number();
  }

  /** Values separated by commas up to `close`, a trailing comma allowed; `read` reads one. */
  private list<T>(close: string, read: () => T): { items: T[]; trailingComma: boolean } {
    const items: T[] = [];
    let comma = true;
    while (!this.eat(close)) {
      if (!comma) throw new NotALiteral();
      items.push(read());
      comma = this.eat(',');
    }
    return { items, trailingComma: items.length > 0 && comma };
  }

  /** `()`, `(x)` (just x), `(x,)` and `(x, y)`. */
  private group(): PyValue {
    this.eat('(');
    const { items, trailingComma } = this.list(')', () => this.value());
    return items.length === 1 && !trailingComma ? items[0] : { type: 'tuple', items };
  }

  /** `{}` is a dict, `{1, 2}` a set, `{'a': 1}` a dict. */
  private braces(): PyValue {
    this.eat('{');
    if (this.eat('}')) return { type: 'dict', entries: [] };
    const first = this.value();
    const rest = <T>(read: () => T): T[] => {
      if (this.eat(',')) return this.list('}', read).items;
      if (this.eat('}')) return [];
      throw new NotALiteral();
    };
    if (!this.eat(':')) return { type: 'set', items: [first, ...rest(() => this.value())].map(hashable) };
    const entry = (key: PyValue): [PyValue, PyValue] => [hashable(key), this.value()];
    const head = entry(first);
    return {
      type: 'dict',
      entries: [
        head,
        ...rest(() => {
          const key = this.value();
          if (!this.eat(':')) throw new NotALiteral();
          return entry(key);
        }),
      ],
    };
  }

  private signed(): PyValue {
    const negative = this.s[this.i++] === '-';
    const v = this.value();
    if (v.type === 'int') return { type: 'int', value: negative ? -v.value : v.value };
    if (v.type === 'float') return { type: 'float', value: negative ? -v.value : v.value };
    if (v.type === 'bool') return { type: 'int', value: BigInt(negative ? -Number(v.value) : Number(v.value)) };
    throw new NotALiteral();
  }

  /** One string, or several side by side (`'a' 'b'` is `'ab'`); null when none starts here. */
  private strings(): PyValue | null {
    let found: PyValue | null = null;
    for (;;) {
      this.space();
      const m = /^([rRbBuU]{0,2})('''|"""|'|")/.exec(this.s.slice(this.i));
      if (!m || /[uU]./.test(m[1])) return found;
      const prefix = m[1].toLowerCase();
      const quote = m[2];
      let j = this.i + m[0].length;
      while (j < this.s.length && !this.s.startsWith(quote, j)) {
        if (quote.length === 1 && this.s[j] === '\n') throw new NotALiteral();
        j += this.s[j] === '\\' ? 2 : 1;
      }
      if (j >= this.s.length) throw new NotALiteral();
      const body = this.s.slice(this.i + m[0].length, j);
      this.i = j + quote.length;
      const type = prefix.includes('b') ? 'bytes' : 'str';
      const value = prefix.includes('r') ? body : unescape(body);
      if (found && found.type !== type) throw new NotALiteral();
      found = { type, value: found && (found.type === 'str' || found.type === 'bytes') ? found.value + value : value };
    }
  }

  private number(): PyValue {
    const rest = this.s.slice(this.i);
    const radix = /^0([xXoObB])([0-9a-fA-F_]+)(?![\w.])/.exec(rest);
    if (radix) {
      this.i += radix[0].length;
      const base = { x: 'x', o: 'o', b: 'b' }[radix[1].toLowerCase() as 'x' | 'o' | 'b'];
      return { type: 'int', value: BigInt(`0${base}${radix[2].replace(/_/g, '')}`) };
    }
    const m = /^(?:\d[\d_]*)?(?:\.\d[\d_]*|\.)?(?:[eE][-+]?\d+)?(?![\w.])/.exec(rest);
    const text = m?.[0].replace(/_/g, '') ?? '';
    if (!/\d/.test(text)) throw new NotALiteral();
    this.i += m![0].length;
    return /[.eE]/.test(text) ? { type: 'float', value: Number(text) } : { type: 'int', value: BigInt(text) };
  }
}

/** The value of a Python literal, or null when `text` is not one (a name, a call, an expression, unbalanced). */
export function parsePythonLiteral(text: string): PyValue | null {
  try {
    const reader = new Reader(text);
    const value = reader.value();
    return reader.done() ? value : null;
  } catch (e) {
    if (e instanceof NotALiteral || e instanceof SyntaxError || e instanceof RangeError) return null;
    throw e;
  }
}

/** A number's value for comparison: bools are 0 and 1, as in Python. */
function numeric(v: PyValue): { int: bigint } | { float: number } | null {
  if (v.type === 'int') return { int: v.value };
  if (v.type === 'bool') return { int: v.value ? 1n : 0n };
  if (v.type === 'float') return { float: v.value };
  return null;
}

function numbersEqual(a: { int: bigint } | { float: number }, b: { int: bigint } | { float: number }): boolean {
  if ('int' in a && 'int' in b) return a.int === b.int;
  if ('float' in a && 'float' in b) return a.float === b.float;
  const [i, f] = 'int' in a ? [a.int, (b as { float: number }).float] : [(b as { int: bigint }).int, (a as { float: number }).float];
  return Number.isInteger(f) && BigInt(f) === i;
}

const sameItems = (a: PyValue[], b: PyValue[]) => a.length === b.length && a.every((x, k) => pythonEqual(x, b[k]));
const unorderedSame = <T>(a: T[], b: T[], eq: (x: T, y: T) => boolean) => a.length === b.length && a.every((x) => b.some((y) => eq(x, y)));

/** Python's `a == b` for two literal values. */
export function pythonEqual(a: PyValue, b: PyValue): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x || y) return x !== null && y !== null && numbersEqual(x, y);
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'none':
      return true;
    case 'str':
    case 'bytes':
      return a.value === (b as typeof a).value;
    case 'list':
    case 'tuple':
      return sameItems(a.items, (b as typeof a).items);
    case 'set':
      return unorderedSame(dedupe(a.items), dedupe((b as typeof a).items), pythonEqual);
    case 'dict':
      return unorderedSame(dictEntries(a.entries), dictEntries((b as typeof a).entries), (p, q) => pythonEqual(p[0], q[0]) && pythonEqual(p[1], q[1]));
    default:
      return false;
  }
}

/** A set literal's distinct members (`{1, 1.0, True}` holds one). */
function dedupe(items: PyValue[]): PyValue[] {
  return items.filter((v, k) => !items.slice(0, k).some((w) => pythonEqual(v, w)));
}

/** A dict literal's entries with a repeated key keeping its last value, as Python builds it. */
function dictEntries(entries: [PyValue, PyValue][]): [PyValue, PyValue][] {
  return entries.filter(([key], k) => !entries.slice(k + 1).some(([later]) => pythonEqual(key, later)));
}
