/**
 * A command's flags as one table: for each flag its kind, default, check and help line. parseFlags reads
 * the command line against it (strictly: an unknown or malformed flag is a usage error, exit status 2),
 * turns each value into its number or choice and checks it, with a message naming the flag; optionsHelp
 * writes the options section of the command's --help from the same table, so the two cannot drift.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError, type CliIo } from './io.ts';

/** What is wrong with a value, said after its flag's name ("must be at least 1, got 0"); undefined when nothing is. */
export type Check<T> = (value: T) => string | undefined;

export interface Flag<T = unknown> {
  /** parseArgs' kind: a switch, or a flag followed by its value. */
  readonly type: 'boolean' | 'string';
  /** Repeatable: every value is kept, in order. */
  readonly multiple?: boolean;
  /** The value's name in --help: N, DIR, FILE, ... (a switch has none). */
  readonly arg?: string;
  /** What the flag does, for --help (which wraps it and adds the default). */
  readonly help: string;
  /** The value when the flag is not given. */
  readonly default?: T;
  /** The value from its text, checked; a usage error naming the flag otherwise. */
  readonly read?: (text: string, name: string) => T;
  /** The next word is the value even when it starts with a dash (`--gold -x`: answers are often negative). */
  readonly dashValue?: boolean;
}

export type FlagTable = Readonly<Record<string, Flag>>;

type ValueOf<F> = F extends Flag<infer T> ? (F extends { multiple: true } ? T[] : T) : never;

/** A table's values: a switch is always true or false, a flag with a default always has a value. */
export type FlagValues<F extends FlagTable> = {
  -readonly [K in keyof F]: F[K] extends { type: 'boolean' }
    ? boolean
    : F[K] extends { default: infer D }
      ? undefined extends D
        ? ValueOf<F[K]> | undefined
        : ValueOf<F[K]>
      : ValueOf<F[K]> | undefined;
};

interface Spec<T> {
  arg?: string;
  help: string;
  default?: T;
  check?: Check<T>;
  dashValue?: boolean;
}

const usageError = (message: string) => new CliError(message, 2);

function checked<T>(name: string, value: T, check: Check<T> | undefined): T {
  const problem = check?.(value);
  if (problem !== undefined) throw usageError(`--${name} ${problem}`);
  return value;
}

/** A flag whose value is read by `read` (a list, a parsed setting): for what the builders below do not cover. */
export function flag<T>(spec: Spec<T> & { default: T; read: (text: string, name: string) => T }): Flag<T> & { default: T };
export function flag<T>(spec: Spec<T> & { read: (text: string, name: string) => T }): Flag<T>;
export function flag<T>({ read, check, ...spec }: Spec<T> & { read: (text: string, name: string) => T }): Flag<T> {
  return { ...spec, type: 'string', read: (text, name) => checked(name, read(text, name), check) };
}

/** A flag whose value is its text. */
export function text(spec: Spec<string> & { default: string }): Flag<string> & { default: string };
export function text(spec: Spec<string>): Flag<string>;
export function text(spec: Spec<string>): Flag<string> {
  return flag({ ...spec, read: (t) => t });
}

/** A repeatable flag: its values in order (undefined when it is not given). */
export function texts(spec: Omit<Spec<string>, 'default'>): Flag<string> & { multiple: true } {
  return { ...text(spec), multiple: true };
}

/** A switch: true when given. */
export function toggle(spec: { help: string }): Flag<boolean> & { type: 'boolean' } {
  return { type: 'boolean', help: spec.help };
}

/** A number from its text: a whole one, or any finite one. */
const numberOf =
  (whole: boolean) =>
  (t: string, name: string): number => {
    const n = Number(t);
    if (!(whole ? Number.isInteger(n) : Number.isFinite(n))) throw usageError(`--${name} must be ${whole ? 'an integer' : 'a number'}, got "${t}"`);
    return n;
  };

/** A whole number. */
export function int(spec: Spec<number> & { default: number }): Flag<number> & { default: number };
export function int(spec: Spec<number>): Flag<number>;
export function int(spec: Spec<number>): Flag<number> {
  return flag({ ...spec, read: numberOf(true) });
}

/** A finite number. */
export function num(spec: Spec<number> & { default: number }): Flag<number> & { default: number };
export function num(spec: Spec<number>): Flag<number>;
export function num(spec: Spec<number>): Flag<number> {
  return flag({ ...spec, read: numberOf(false) });
}

/** How an error lists the choices: "x", "x or y", or "one of x, y, z". */
const listed = (values: readonly string[]) =>
  values.length === 1 ? `"${values[0]}"` : values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;

/** One of `values`; `said` is how the error lists them when not as `listed` does. */
export function choice<C extends string>(values: readonly C[], spec: Spec<C> & { default: C; said?: string }): Flag<C> & { default: C };
export function choice<C extends string>(values: readonly C[], spec: Spec<C> & { said?: string }): Flag<C>;
export function choice<C extends string>(values: readonly C[], { said, ...spec }: Spec<C> & { said?: string }): Flag<C> {
  return flag({
    ...spec,
    read: (t, name) => {
      if (!(values as readonly string[]).includes(t)) throw usageError(`--${name} must be ${said ?? listed(values)}, got "${t}"`);
      return t as C;
    },
  });
}

// The checks commands share; a check of one command is written beside its flag.
export const atLeast =
  (min: number): Check<number> =>
  (n) =>
    n >= min ? undefined : `must be at least ${min}, got ${n}`;
export const positive: Check<number> = (n) => (n > 0 ? undefined : `must be positive, got ${n}`);
export const notNegative: Check<number> = (n) => (n >= 0 ? undefined : `must be 0 or more, got ${n}`);
export const positiveInteger: Check<number> = (n) => (n > 0 ? undefined : `must be a positive integer, got ${n}`);

/**
 * `--flag -1` as `--flag=-1` for a flag that takes a value: parseArgs reads a value starting with '-' as
 * an "ambiguous" option, and the flag's own check then says what is wrong with the number. A flag with
 * dashValue takes the next word whatever it starts with.
 */
function joinDashValues(argv: string[], flags: FlagTable): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return [...args, ...argv.slice(i)];
    const f = argv[i].startsWith('--') ? flags[argv[i].slice(2)] : undefined;
    const next = argv[i + 1];
    if (f?.type === 'string' && next !== undefined && (f.dashValue || /^-\.?\d/.test(next))) args.push(`${argv[i]}=${argv[++i]}`);
    else args.push(argv[i]);
  }
  return args;
}

export type ParsedFlags<F extends FlagTable> =
  | { help: true }
  | {
      help: false;
      values: FlagValues<F>;
      /** The flags the command line gave, as against those at their defaults. */
      given: ReadonlySet<keyof F & string>;
      positionals: string[];
    };

/**
 * The command line read against `flags`, every value read and checked; `help` when it asks for --help
 * (or -h), and then nothing else is read. An unknown or malformed flag is a usage error naming it.
 */
export function parseFlags<F extends FlagTable>(argv: string[], flags: F, options: { positionals?: boolean } = {}): ParsedFlags<F> {
  const config: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, f] of Object.entries(flags)) config[name] = { type: f.type, ...(f.multiple ? { multiple: true } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: joinDashValues(argv, flags), options: config, strict: true, allowPositionals: options.positionals ?? false });
  } catch (e) {
    throw usageError((e as Error).message);
  }
  if (parsed.values.help) return { help: true };
  const values: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(flags)) {
    const raw = parsed.values[name] as string | string[] | boolean | undefined;
    if (f.type === 'boolean') values[name] = raw === true;
    else if (raw === undefined) values[name] = f.default;
    else values[name] = Array.isArray(raw) ? raw.map((t) => f.read!(t, name)) : f.read!(raw as string, name);
  }
  const given = new Set(Object.keys(parsed.values) as (keyof F & string)[]);
  return { help: false, values: values as FlagValues<F>, given, positionals: parsed.positionals };
}

/** Help lines are wrapped to this width. */
const WIDTH = 110;

function wrap(words: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of words.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

const shown = (value: unknown): string =>
  Array.isArray(value) ? value.join(',') : typeof value === 'number' && value !== 0 && Math.abs(value) < 1e-3 ? value.toExponential() : String(value);

/** The options of `flags`, one entry each in table order: name, value, what it does and its default, aligned. */
export function optionsHelp(flags: FlagTable): string {
  const entries = Object.entries(flags).map(([name, f]) => ({
    name: `--${name}${f.arg ? ` ${f.arg}` : ''}`,
    text: f.type === 'boolean' || f.default === undefined ? f.help : `${f.help} (default ${shown(f.default)})`,
  }));
  const column = Math.max(...entries.map((e) => e.name.length)) + 4;
  const lines = entries.flatMap((e) => wrap(e.text, WIDTH - column).map((line, i) => `${i === 0 ? `  ${e.name}`.padEnd(column) : ' '.repeat(column)}${line}`));
  return `${lines.join('\n')}\n`;
}

/** A command's --help: its usage and description, then its options; `after` is said last. */
export interface CommandHelp {
  usage: string;
  flags: FlagTable;
  after?: string;
}

export const helpText = (h: CommandHelp) => `${h.usage}\noptions:\n${optionsHelp(h.flags)}${h.after === undefined ? '' : `\n${h.after}`}`;

/** Prints a command's --help (its table's, or a text written from tables); its exit status, 0. */
export function printHelp(io: CliIo, help: CommandHelp | string): number {
  io.stdout(typeof help === 'string' ? help : helpText(help));
  return 0;
}
