/**
 * A small LaTeX-to-mathjs translator for single answers (no commas, no `=`): `\frac`, `\sqrt`,
 * powers, implicit products, mixed numbers (`1\frac{4}{5}`), trig and log functions, `|x|`.
 * Variables become `var_<name>` so they can never collide with mathjs constants (`E`, `pi`);
 * `e` and `i` stay Euler's number and the imaginary unit. Anything it does not know returns null,
 * and the caller falls back to comparing strings.
 */

type Token = { kind: 'num' | 'var' | 'cmd' | 'op'; text: string };

const FUNCTIONS: Record<string, string> = {
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  sec: 'sec',
  csc: 'csc',
  cot: 'cot',
  arcsin: 'asin',
  arccos: 'acos',
  arctan: 'atan',
  sinh: 'sinh',
  cosh: 'cosh',
  tanh: 'tanh',
  ln: 'log',
  log: 'log10',
  exp: 'exp',
};
// `\sin^{-1} x` is the inverse function, not a reciprocal.
const INVERSES: Record<string, string> = { sin: 'asin', cos: 'acos', tan: 'atan', sec: 'asec', csc: 'acsc', cot: 'acot' };
const CONSTANTS: Record<string, string> = { pi: 'pi', infty: 'Infinity', infinity: 'Infinity' };
const GREEK = new Set([
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'varepsilon',
  'zeta',
  'eta',
  'theta',
  'vartheta',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'xi',
  'rho',
  'sigma',
  'tau',
  'phi',
  'varphi',
  'chi',
  'psi',
  'omega',
  'Gamma',
  'Delta',
  'Theta',
  'Lambda',
  'Sigma',
  'Phi',
  'Psi',
  'Omega',
]);
const OPERATORS: Record<string, string> = { cdot: '*', times: '*', ast: '*', div: '/' };
const UNICODE: Record<string, string> = { '·': '\\cdot ', '×': '\\times ', '÷': '\\div ', '−': '-', π: '\\pi ', '√': '\\sqrt ', '∞': '\\infty ' };

class Unsupported extends Error {}

function tokenize(latex: string): Token[] {
  const tokens: Token[] = [];
  const text = latex.replace(/[·×÷−π√∞]/g, (c) => UNICODE[c]);
  for (let i = 0; i < text.length;) {
    const rest = text.slice(i);
    const m =
      /^\s+/.exec(rest) ??
      /^(?:\d+(?:\.\d*)?|\.\d+)/.exec(rest) ??
      /^\\[a-zA-Z]+/.exec(rest) ??
      /^\\[{}|]/.exec(rest) ??
      /^[a-zA-Z]/.exec(rest) ??
      /^[-+*/^_!(){}[\]|]/.exec(rest);
    if (!m) throw new Unsupported(rest);
    const t = m[0];
    i += t.length;
    if (/^\s/.test(t)) continue;
    if (/^[\d.]/.test(t)) tokens.push({ kind: 'num', text: t });
    else if (t.startsWith('\\')) tokens.push({ kind: 'cmd', text: t.slice(1) });
    else if (/^[a-zA-Z]$/.test(t)) tokens.push({ kind: 'var', text: t });
    else tokens.push({ kind: 'op', text: t });
  }
  return tokens;
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '|': '|' };

class Translator {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  translate(): string {
    const out = this.sequence(null);
    if (this.i < this.tokens.length) throw new Unsupported('trailing input');
    return out;
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }

  private isOp(t: Token | undefined, text: string): boolean {
    return t !== undefined && (t.kind === 'op' || t.kind === 'cmd') && t.text === text;
  }

  /** Operands and operators up to `closer`; adjacent operands multiply. */
  private sequence(closer: string | null): string {
    let out = '';
    let lastWasOperand = false;
    while (this.i < this.tokens.length) {
      const t = this.peek()!;
      if (closer !== null && this.isOp(t, closer)) return out;
      if (t.kind === 'op' && '+-*/'.includes(t.text)) {
        this.i++;
        out += t.text;
        lastWasOperand = false;
      } else if (t.kind === 'cmd' && t.text in OPERATORS) {
        this.i++;
        out += OPERATORS[t.text];
        lastWasOperand = false;
      } else if (this.isOp(t, '^')) {
        if (!lastWasOperand) throw new Unsupported('^ without a base');
        this.i++;
        out += `^(${this.argument()})`;
      } else if (this.isOp(t, '!')) {
        if (!lastWasOperand) throw new Unsupported('! without an operand');
        this.i++;
        out += '!';
      } else {
        const operand = this.operand();
        out += (lastWasOperand ? '*' : '') + operand;
        lastWasOperand = true;
      }
    }
    if (closer !== null) throw new Unsupported(`missing ${closer}`);
    return out;
  }

  /** A `{group}` or a single token: the argument of `^`, `\frac`, `\sqrt`. */
  private argument(): string {
    const t = this.peek();
    if (!t) throw new Unsupported('missing argument');
    if (this.isOp(t, '{')) {
      this.i++;
      const inner = this.sequence('}');
      this.i++;
      return inner;
    }
    if (t.kind === 'op' && t.text === '-') {
      this.i++;
      return `-${this.operand()}`;
    }
    // `x^2\frac{1}{2}` is x squared times a half, not x to a mixed number.
    if (t.kind === 'num') {
      this.i++;
      return t.text;
    }
    return this.operand();
  }

  private operand(): string {
    const t = this.tokens[this.i++];
    if (!t) throw new Unsupported('missing operand');
    if (t.kind === 'num') return this.number(t.text);
    if (t.kind === 'var') return this.variable(t.text);
    if (t.kind === 'op' && t.text in CLOSERS) {
      const inner = this.sequence(CLOSERS[t.text]);
      this.i++;
      return t.text === '|' ? `abs(${inner})` : `(${inner})`;
    }
    if (t.kind === 'cmd') return this.command(t.text);
    throw new Unsupported(t.text);
  }

  private variable(name: string): string {
    const subscript = this.subscript();
    if (!subscript && (name === 'e' || name === 'i')) return name;
    return `var_${name}${subscript}`;
  }

  private subscript(): string {
    if (!this.isOp(this.peek(), '_')) return '';
    this.i++;
    const t = this.peek();
    if (this.isOp(t, '{')) {
      let name = '';
      for (this.i++; this.peek() && !this.isOp(this.peek(), '}'); this.i++) name += this.peek()!.text;
      this.i++;
      if (!/^\w+$/.test(name)) throw new Unsupported('subscript');
      return `_${name}`;
    }
    this.i++;
    if (!t || !/^\w+$/.test(t.text)) throw new Unsupported('subscript');
    return `_${t.text}`;
  }

  /** A number, or a mixed number when an integer is followed by `\frac{int}{int}` (`1\frac{4}{5}`). */
  private number(text: string): string {
    const next = this.peek();
    if (/^\d+$/.test(text) && next?.kind === 'cmd' && next.text === 'frac') {
      const [open1, num, close1, open2, den, close2] = this.tokens.slice(this.i + 1, this.i + 7);
      const integer = (t: Token | undefined) => t?.kind === 'num' && /^\d+$/.test(t.text);
      if (this.isOp(open1, '{') && integer(num) && this.isOp(close1, '}') && this.isOp(open2, '{') && integer(den) && this.isOp(close2, '}')) {
        this.i += 7;
        return `(${text}+${num!.text}/${den!.text})`;
      }
    }
    return text.endsWith('.') ? text.slice(0, -1) : text;
  }

  private command(name: string): string {
    if (name in CONSTANTS) return CONSTANTS[name];
    if (GREEK.has(name)) return this.variable(name);
    if (name === 'frac') return `((${this.argument()})/(${this.argument()}))`;
    if (name === 'binom') return `combinations(${this.argument()},${this.argument()})`;
    if (name === 'sqrt') {
      if (this.isOp(this.peek(), '[')) {
        this.i++;
        const index = this.sequence(']');
        this.i++;
        return `nthRoot(${this.argument()},${index})`;
      }
      return `sqrt(${this.argument()})`;
    }
    if (name === 'lfloor' || name === 'lceil') {
      const inner = this.sequence(name === 'lfloor' ? 'rfloor' : 'rceil');
      this.i++;
      return `${name.slice(1)}(${inner})`;
    }
    if (name === '{') {
      const inner = this.sequence('}');
      this.i++;
      return `(${inner})`;
    }
    if (name in FUNCTIONS) return this.functionCall(FUNCTIONS[name]);
    throw new Unsupported(name);
  }

  /** Numbers, variables and constants continue a bare function argument; operators and functions end it. */
  private startsBareArgument(t: Token | undefined): boolean {
    if (!t) return false;
    return t.kind === 'num' || t.kind === 'var' || (t.kind === 'cmd' && !(t.text in OPERATORS) && !(t.text in FUNCTIONS));
  }

  /** `\sin x`, `\sin(2x)`, `\sin^2 x`, `\log_2 8`: the argument runs over adjacent operands. */
  private functionCall(fn: string): string {
    let power = '';
    let base = '';
    if (this.isOp(this.peek(), '_')) {
      this.i++;
      base = `,${this.argument()}`;
    }
    if (this.isOp(this.peek(), '^')) {
      this.i++;
      power = this.argument();
    }
    let arg = '';
    if (this.isOp(this.peek(), '(') || this.isOp(this.peek(), '{')) arg = this.operand();
    else {
      while (this.startsBareArgument(this.peek())) {
        arg += (arg ? '*' : '') + this.operand();
        if (this.isOp(this.peek(), '^')) {
          this.i++;
          arg += `^(${this.argument()})`;
        }
      }
      if (!arg) throw new Unsupported(`${fn} without an argument`);
    }
    if (power === '-1' && fn in INVERSES) return `${INVERSES[fn]}(${arg})`;
    const call = `${base ? 'log' : fn}(${arg}${base})`;
    return power ? `(${call})^(${power})` : call;
  }
}

/** A mathjs expression for one LaTeX answer, or null when the answer is outside what is understood. */
export function latexToMathjs(latex: string): string | null {
  try {
    const tokens = tokenize(latex);
    if (tokens.length === 0) return null;
    return new Translator(tokens).translate();
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
