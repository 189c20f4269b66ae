/**
 * Equality of two single LaTeX answers as mathematics: translated to mathjs and evaluated, at
 * several seeded points when free variables occur (so `x^2+2x` equals `2x + x^2` and
 * `\cot x` equals `\frac{\cos x}{\sin x}`). null when either side cannot be evaluated, which
 * tells the caller to fall back to comparing text.
 */
import { parse, type MathNode } from 'mathjs';
import { latexToMathjs } from './latex-to-mathjs.ts';
import { numbersClose } from './numeric-close.ts';

/** A computed value, real or complex. */
type Value = { re: number; im: number };
type Evaluate = (scope: Record<string, number>) => Value | null;

const TRIALS = 6;
const MIN_VALID_TRIALS = 3;

function toValue(result: unknown): Value | null {
  if (typeof result === 'number') return Number.isNaN(result) ? null : { re: result, im: 0 };
  if (result && typeof result === 'object' && 're' in result && 'im' in result) {
    const { re, im } = result as Value;
    if (Number.isNaN(re) || Number.isNaN(im)) return null;
    return { re, im };
  }
  return null;
}

/** A compiled expression and the free variables it uses, or null when mathjs cannot parse it. */
function compile(latex: string): { evaluate: Evaluate; variables: string[] } | null {
  const expression = latexToMathjs(latex);
  if (expression === null) return null;
  let node: MathNode;
  try {
    node = parse(expression);
  } catch {
    return null;
  }
  const variables = new Set<string>();
  node.traverse((n) => {
    if ('name' in n && typeof n.name === 'string' && n.type === 'SymbolNode' && n.name.startsWith('var_')) variables.add(n.name);
  });
  const code = node.compile();
  const evaluate: Evaluate = (scope) => {
    try {
      return toValue(code.evaluate({ ...scope }));
    } catch {
      return null;
    }
  };
  return { evaluate, variables: [...variables] };
}

/**
 * Seeded points away from 0 and ±1, where identities that hold only there would fool us; every
 * other trial is negative, so `|x|` and `\sqrt{x^2}` differ from `x`.
 */
function samplePoint(variables: string[], trial: number): Record<string, number> {
  const scope: Record<string, number> = {};
  variables.forEach((name, k) => {
    const x = Math.sin(12.9898 * (trial + 1) + 78.233 * (k + 1)) * 43758.5453;
    scope[name] = (trial % 2 === 0 ? 1 : -1) * (1.1 + 1.6 * (x - Math.floor(x)));
  });
  return scope;
}

function valuesClose(a: Value, b: Value): boolean {
  return numbersClose(a.re, b.re) && numbersClose(a.im, b.im);
}

/** Whether two answers have the same value (at every sampled point), or null when either cannot be evaluated. */
export function expressionsEqual(a: string, b: string): boolean | null {
  const left = compile(a);
  const right = compile(b);
  if (!left || !right) return null;
  const variables = [...new Set([...left.variables, ...right.variables])].sort();
  const trials = variables.length === 0 ? 1 : TRIALS;
  let valid = 0;
  for (let t = 0; t < trials; t++) {
    const scope = samplePoint(variables, t);
    const x = left.evaluate(scope);
    const y = right.evaluate(scope);
    if (x === null || y === null) continue;
    if (!valuesClose(x, y)) return false;
    valid++;
  }
  if (valid === 0) return null;
  return variables.length === 0 || valid >= MIN_VALID_TRIALS ? true : null;
}

/** The value of a closed expression (no variables), or null: for percent and ratio checks. */
export function evaluateClosed(latex: string): Value | null {
  const compiled = compile(latex);
  if (!compiled || compiled.variables.length > 0) return null;
  return compiled.evaluate({});
}

/**
 * `f = 0` and `g = 0` describe the same set when f is a constant non-zero multiple of g:
 * compares `left - right` of two equations by their ratio at seeded points.
 */
export function differencesProportional(f: string, g: string): boolean | null {
  const left = compile(f);
  const right = compile(g);
  if (!left || !right) return null;
  const variables = [...new Set([...left.variables, ...right.variables])].sort();
  let ratio: Value | null = null;
  let valid = 0;
  for (let t = 0; t < TRIALS; t++) {
    const scope = samplePoint(variables, t);
    const x = left.evaluate(scope);
    const y = right.evaluate(scope);
    if (x === null || y === null || x.im !== 0 || y.im !== 0) continue;
    if (numbersClose(y.re, 0)) {
      if (!numbersClose(x.re, 0)) return false;
      continue;
    }
    const r = { re: x.re / y.re, im: 0 };
    if (ratio === null) ratio = r;
    else if (!valuesClose(ratio, r)) return false;
    valid++;
  }
  if (ratio === null || valid < MIN_VALID_TRIALS || numbersClose(ratio.re, 0)) return null;
  return true;
}
