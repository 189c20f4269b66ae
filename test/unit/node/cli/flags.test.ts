import { describe, expect, it } from 'vitest';
import { atLeast, choice, flag, helpText, int, num, optionsHelp, parseFlags, text, texts, toggle, type FlagTable } from '../../../../src/node/cli/flags.ts';
import { CliError } from '../../../../src/node/cli/io.ts';

const FLAGS = {
  budget: num({ arg: 'USD', help: 'dollars', check: atLeast(0) }),
  seed: int({ arg: 'S', help: 'seed', default: 0 }),
  steps: int({ arg: 'N', help: 'steps', default: 20, check: atLeast(1) }),
  mode: choice(['binary', 'positional'], { arg: 'M', help: 'mode', default: 'binary' }),
  replay: texts({ arg: 'FILE', help: 'files' }),
  resume: toggle({ help: 'resume' }),
};

function values(argv: string[], flags: FlagTable = FLAGS, positionals = false) {
  const args = parseFlags(argv, flags, { positionals });
  if (args.help) throw new Error('asked for help');
  return args;
}

/** The usage error parsing `argv` throws: its message, and its exit status. */
function refusal(argv: string[], flags: FlagTable = FLAGS) {
  try {
    parseFlags(argv, flags);
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return { message: (e as CliError).message, exitCode: (e as CliError).exitCode };
  }
  throw new Error(`${argv.join(' ')} parsed`);
}

describe('parseFlags', () => {
  it('reads each value as its flag says, and gives the defaults of the flags not given', () => {
    const { values: v, given } = values(['--budget', '2.5', '--steps', '30', '--replay', 'a.csv', '--replay', 'b.csv', '--resume']);
    expect(v).toEqual({ budget: 2.5, seed: 0, steps: 30, mode: 'binary', replay: ['a.csv', 'b.csv'], resume: true });
    expect([...given]).toEqual(['budget', 'steps', 'replay', 'resume']);
    expect(values([]).values).toEqual({ budget: undefined, seed: 0, steps: 20, mode: 'binary', replay: undefined, resume: false });
  });

  it('takes a negative number after a flag that takes a value as its value, not as an ambiguous option', () => {
    expect(values(['--seed', '-5', '--resume']).values).toMatchObject({ seed: -5, resume: true });
    expect(refusal(['--budget', '-1'])).toEqual({ message: '--budget must be at least 0, got -1', exitCode: 2 });
    expect(values(['--seed', '2', '--', '--seed', '-1'], FLAGS, true).positionals).toEqual(['--seed', '-1']);
    expect(refusal(['--resume', '-1']).exitCode).toBe(2);
  });

  it('takes the next word whatever it starts with for a flag that says so', () => {
    const flags = { gold: text({ arg: 'A', help: 'answer', dashValue: true }), plain: text({ arg: 'A', help: 'answer' }) };
    expect(values(['--gold', '-\\frac{1}{2}'], flags).values.gold).toBe('-\\frac{1}{2}');
    expect(refusal(['--plain', '-\\frac{1}{2}'], flags).message).toMatch(/--plain.*ambiguous/);
  });

  it('refuses a malformed or unknown flag as a usage error naming it', () => {
    expect(refusal(['--seed', '1.5'])).toEqual({ message: '--seed must be an integer, got "1.5"', exitCode: 2 });
    expect(refusal(['--budget', 'cheap'])).toEqual({ message: '--budget must be a number, got "cheap"', exitCode: 2 });
    expect(refusal(['--steps', '0'])).toEqual({ message: '--steps must be at least 1, got 0', exitCode: 2 });
    expect(refusal(['--mode', 'partial'])).toEqual({ message: '--mode must be binary or positional, got "partial"', exitCode: 2 });
    expect(refusal(['--bogus']).message).toMatch(/Unknown option '--bogus'/);
    expect(refusal(['stray']).message).toMatch(/positional argument/);
  });

  it('lists the choices as their number asks, or as the flag says them', () => {
    const one = { constrain: choice(['workflow'], { arg: 'C', help: 'c' }) };
    const three = { loss: choice(['bnpo', 'grpo', 'dr_grpo'], { arg: 'T', help: 't' }) };
    const said = { weights: choice(['f32', 'f16', 'int4'], { arg: 'W', help: 'w', said: 'f32, f16 or int4' }) };
    expect(refusal(['--constrain', 'x'], one).message).toBe('--constrain must be "workflow", got "x"');
    expect(refusal(['--loss', 'x'], three).message).toBe('--loss must be one of bnpo, grpo, dr_grpo, got "x"');
    expect(refusal(['--weights', 'f8'], said).message).toBe('--weights must be f32, f16 or int4, got "f8"');
  });

  it("reads a value with the flag's own reader, whose error stands", () => {
    const flags = {
      targets: flag({
        arg: 'LIST',
        help: 'modules',
        default: ['q_proj'],
        read: (t) => {
          if (t === 'none') throw new CliError('--targets takes q_proj or k_proj', 2);
          return t.split(',');
        },
      }),
    };
    expect(values(['--targets', 'q_proj,k_proj'], flags).values.targets).toEqual(['q_proj', 'k_proj']);
    expect(values([], flags).values.targets).toEqual(['q_proj']);
    expect(refusal(['--targets', 'none'], flags).message).toBe('--targets takes q_proj or k_proj');
  });

  it('answers --help (or -h) before reading any value, but not past an unknown flag', () => {
    expect(parseFlags(['--steps', '0', '--help'], FLAGS)).toEqual({ help: true });
    expect(parseFlags(['-h'], FLAGS)).toEqual({ help: true });
    expect(refusal(['--bogus', '--help']).message).toMatch(/Unknown option '--bogus'/);
  });
});

describe('optionsHelp', () => {
  it('lists every flag in table order with its value, what it does and its default, aligned and wrapped', () => {
    const long = 'word '.repeat(40).trim();
    const help = optionsHelp({ ...FLAGS, lr: num({ arg: 'LR', help: 'learning rate', default: 1e-4 }), note: text({ arg: 'T', help: long }) });
    const lines = help.trimEnd().split('\n');
    expect(lines.slice(0, 7)).toEqual([
      '  --budget USD   dollars',
      '  --seed S       seed (default 0)',
      '  --steps N      steps (default 20)',
      '  --mode M       mode (default binary)',
      '  --replay FILE  files',
      '  --resume       resume',
      '  --lr LR        learning rate (default 1e-4)',
    ]);
    expect(lines[7].startsWith('  --note T       word word')).toBe(true);
    expect(lines.slice(8).every((l) => l.startsWith(' '.repeat(17) + 'word'))).toBe(true);
    expect(lines.every((l) => l.length <= 110)).toBe(true);
    expect(lines.slice(7).join(' ').replace(/\s+/g, ' ').trim()).toBe(`--note T ${long}`);
  });

  it('makes a command help of its usage, its options and what follows them', () => {
    const help = helpText({ usage: 'usage: baton x [options]\n', flags: { seed: FLAGS.seed }, after: 'Exit status: 0.\n' });
    expect(help).toBe('usage: baton x [options]\n\noptions:\n  --seed S  seed (default 0)\n\nExit status: 0.\n');
  });
});
