/**
 * A tiny structural validator. A check returns null when the value fits, or an Issue naming the field by
 * its path (`steps[2].usage.input`), so a bad JSONL line can be fixed by hand. Unknown extra fields are
 * allowed: a later additive version of a record must still load.
 */
interface Issue {
  path: string;
  expected: string;
  got: unknown;
}

type Check = (value: unknown, path: string) => Issue | null;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (field missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}

export function formatIssue(issue: Issue): string {
  return `${issue.path || 'not an episode'}: expected ${issue.expected}, got ${describe(issue.got)}`;
}

/** A check from a predicate and what to call the values it accepts. */
export function accept(expected: string, test: (v: unknown) => boolean): Check {
  return (v, path) => (test(v) ? null : { path, expected, got: v });
}

export const string = accept('a string', (v) => typeof v === 'string');
export const number = accept('a number', (v) => typeof v === 'number' && Number.isFinite(v));
export const boolean = accept('true or false', (v) => typeof v === 'boolean');
export const count = accept('a whole number >= 0', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);
export const plainObject = accept('an object', (v) => typeof v === 'object' && v !== null && !Array.isArray(v));

export function literal<T extends string | number>(...allowed: readonly T[]): Check {
  return accept(allowed.map((a) => JSON.stringify(a)).join(' or '), (v) => allowed.includes(v as T));
}

export function nullable(check: Check): Check {
  return (v, p) => (v === null ? null : check(v, p));
}

export function array(item: Check): Check {
  return (v, p) => {
    if (!Array.isArray(v)) return { path: p, expected: 'an array', got: v };
    for (let i = 0; i < v.length; i++) {
      const issue = item(v[i], `${p}[${i}]`);
      if (issue) return issue;
    }
    return null;
  };
}

/**
 * The first check that fits. Otherwise the issue from the check that got deepest into the value (the
 * likely intended shape); alternatives that failed at the value itself are listed together.
 */
export function oneOf(...checks: Check[]): Check {
  return (v, p) => {
    const issues: Issue[] = [];
    for (const check of checks) {
      const issue = check(v, p);
      if (!issue) return null;
      issues.push(issue);
    }
    const deepest = issues.reduce((a, b) => (b.path.length > a.path.length ? b : a));
    if (deepest.path !== p) return deepest;
    return { path: p, expected: issues.map((i) => i.expected).join(' or '), got: v };
  };
}

/** `optional` fields may be absent; present ones must fit. */
interface Shape {
  [field: string]: Check | { optional: Check };
}

export function optional(check: Check): { optional: Check } {
  return { optional: check };
}

export function object(shape: Shape): Check {
  const fields = Object.entries(shape);
  return (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return { path: p, expected: 'an object', got: v };
    const record = v as Record<string, unknown>;
    for (const [name, spec] of fields) {
      const path = p ? `${p}.${name}` : name;
      const value = record[name];
      const issue = typeof spec === 'function' ? spec(value, path) : value === undefined ? null : spec.optional(value, path);
      if (issue) return issue;
    }
    return null;
  };
}
