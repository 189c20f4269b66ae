import { describe, expect, it } from 'vitest';
import { main } from '../../../../src/node/main.ts';
import { parseFlags } from '../../../../src/node/cli/flags.ts';
import type { CliIo } from '../../../../src/node/cli/io.ts';
import { MODEL_FLAGS, modelRefOf } from '../../../../src/node/models/model-flags.ts';

/** The model the command line names, as a command that loads the engine reads it. */
function modelOf(argv: string[], cwd: string) {
  const args = parseFlags(argv, MODEL_FLAGS);
  if (args.help) throw new Error('no --help here');
  return modelRefOf(args.values, cwd);
}

describe('the model flags', () => {
  it('resolve the model and adapter directories and read the weight storage', () => {
    expect(modelOf(['--model', 'models/qwen', '--lora', '../adapter', '--weights', 'int4'], '/work/run')).toEqual({
      modelDir: '/work/run/models/qwen',
      loraDir: '/work/adapter',
      weights: 'int4',
    });
    expect(modelOf(['--model', '/abs/model'], '/work/run')).toEqual({ modelDir: '/abs/model' });
  });

  it('refuse a missing model, an empty adapter and an unknown weight storage, as usage errors', () => {
    const refusal = (argv: string[]) => {
      try {
        modelOf(argv, '/');
      } catch (e) {
        return { message: (e as Error).message, exitCode: (e as { exitCode?: number }).exitCode };
      }
      return undefined;
    };
    expect(refusal([])).toEqual({ message: '--model DIR is required', exitCode: 2 });
    expect(refusal(['--model', ' '])).toEqual({ message: '--model DIR is required', exitCode: 2 });
    expect(refusal(['--model', 'm', '--lora', ''])).toEqual({ message: '--lora needs the adapter directory', exitCode: 2 });
    expect(refusal(['--model', 'm', '--weights', 'f8'])).toEqual({ message: '--weights must be f32, f16 or int4, got "f8"', exitCode: 2 });
  });
});

describe('baton generate and logprobs', () => {
  it('both read the shared flags with it, before loading anything', async () => {
    for (const command of [
      ['generate', '--model', 'no-such-dir', '--weights', 'f8', '--prompt', 'Hi'],
      ['logprobs', '--model', 'no-such-dir', '--weights', 'f8', '--text', 'Hi'],
    ]) {
      let err = '';
      const io: CliIo = { stdout: () => {}, stderr: (t) => void (err += t), readStdin: async () => '', env: {}, cwd: '/' };
      expect(await main(command, io)).toBe(2);
      expect(err).toBe(`baton ${command[0]}: --weights must be f32, f16 or int4, got "f8"\n`);
    }
  });
});
