import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-train-flags-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const io = recordingIo(root);
  const code = await main(['train', ...argv], io);
  return { code, err: io.err, out: io.out };
}

// Settings are checked before any model is loaded or GPU touched.
describe('baton train flags', () => {
  it('prints its usage', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/--resume DIR/);
  });

  it.each([
    [['--pool', 'experts', '--tasks', 'experts', '--out', 'o'], /--model DIR is required/],
    [['--model', 'm', '--tasks', 'experts', '--out', 'o'], /--pool is required/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--loss-type', 'dapo'], /--loss-type must be one of bnpo, grpo, dr_grpo/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--group', '1'], /--group must be at least 2/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--mu', '0'], /--mu must be at least 1/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--budget=-1'], /--budget must be at least 0/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--prompt', 'long'], /--prompt must be ask or compact/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--scale-rewards', 'std'], /--scale-rewards must be one of/],
    [['--resume', 'nowhere'], /--resume: cannot read .*nowhere\/config\.json/],
    [
      ['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--concurrency', 'openai'],
      /--concurrency: Calls in flight are provider=N pairs separated by commas .* got "openai"/,
    ],
    [
      ['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--concurrency', 'openai=4,opneai=2'],
      /--concurrency: No provider "opneai"; use one of openai, anthropic/,
    ],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--concurrency', 'google=0'], /--concurrency: google needs at least 1 call at a time, got 0/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--recursion=-1'], /--recursion must be at least 0/],
    [['--model', 'm', '--pool', 'experts', '--tasks', 'experts', '--recursion-mix', '1.5'], /--recursion-mix must be from 0 to 1, got 1.5/],
  ])('refuses %j', async (argv, message) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('names a --pool that is neither a built-in pool nor a file, and lists the built-in pools; a pool file gets past the check', async () => {
    const unknown = await run('--model', 'm', '--pool', 'routerbench-5', '--tasks', 'routerbench', '--out', 'o');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      `baton train: --pool routerbench-5: no built-in pool of that name, and no pool file ${join(root, 'routerbench-5')}. The built-in pools: demo, experts, routellm-mmlu, zeroeval, zeroeval-4, routerbench, routerbench-4.\n`,
    );
    await writeFile(join(root, 'routerbench-5'), JSON.stringify({ workers: [{ id: 'a', provider: 'simulated', model: 'a' }] }));
    expect((await run('--model', 'm', '--pool', 'routerbench-5', '--tasks', 'routerbench', '--group', '4', '--mu', '0')).err).toMatch(
      /--mu must be at least 1/,
    );
  });

  it('reads settings from --config as if they were flags given first, which the command line overrides', async () => {
    await writeFile(join(root, 'run.json'), JSON.stringify({ model: 'm', pool: 'experts', tasks: 'experts', group: 1, constrain: true }));
    expect((await run('--config', 'run.json')).err).toMatch(/--group must be at least 2/);
    // A flag on the command line wins over the file's value, so the run gets past --group to the next check.
    expect((await run('--config', 'run.json', '--group', '4', '--mu', '0')).err).toMatch(/--mu must be at least 1/);
    await writeFile(join(root, 'odd.json'), JSON.stringify({ model: 'm', learning_rate: 0.1 }));
    expect((await run('--config=odd.json')).err).toMatch(/odd\.json: "learning_rate" is not a setting of baton train/);
    await writeFile(join(root, 'bad.json'), '{"model": ');
    expect((await run('--config', 'bad.json')).err).toMatch(/bad\.json: not JSON/);
    expect((await run('--config', 'missing.json')).err).toMatch(/--config: cannot read .*missing\.json/);
  });
});
