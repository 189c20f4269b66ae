import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { episodeToLine, type Episode, type EpisodeStats } from '../../../../../src/core/episodes/index.ts';
import { main } from '../../../../../src/node/main.ts';
import type { CliIo } from '../../../../../src/node/cli/io.ts';
import { makeEpisodes } from '../../../../support/episode-factory.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-cli-episodes-'));
  dirs.push(dir);
  return dir;
}

async function baton(cwd: string, args: string[], env: Record<string, string> = {}, stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => stdin, env, cwd };
  const code = await main(['episodes', ...args], io);
  return { code, stdout, stderr };
}

const jsonl = (eps: Episode[]) => eps.map((ep) => `${episodeToLine(ep)}\n`).join('');

describe('baton episodes', () => {
  it('imports the good lines of a file, names the bad ones and exits 1', async () => {
    const cwd = await workspace();
    const [a, b] = makeEpisodes(2, 61);
    await writeFile(
      join(cwd, 'in.jsonl'),
      `${episodeToLine(a)}\nnot json\n${JSON.stringify({ ...b, status: 'done' })}\n${episodeToLine(b)}\n${episodeToLine(a)}\n`,
    );
    const run = await baton(cwd, ['import', 'in.jsonl']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^imported 2, skipped 1 duplicate, 2 bad lines\n/);
    expect(run.stdout).toMatch(/\n {2}line 2: not valid JSON/);
    expect(run.stdout).toMatch(/\n {2}line 3: status: expected "ok" or "format-error"/);
    expect(run.stderr).toMatch(/fix them and import the file again/);
    // Default directory: ./episodes under the working directory.
    expect((await readdir(join(cwd, 'episodes'))).length).toBeGreaterThan(0);
    const stats = JSON.parse((await baton(cwd, ['stats', '--json'])).stdout) as EpisodeStats;
    expect(stats.count).toBe(2);

    const clean = await baton(cwd, ['import', 'in.jsonl']);
    expect(clean.stdout).toMatch(/^imported 0, skipped 3 duplicates, 2 bad lines/);
  });

  it('exports with filters to a file or stdout, and the export imports into another directory unchanged', async () => {
    const cwd = await workspace();
    const episodes = makeEpisodes(120, 62);
    await writeFile(join(cwd, 'all.jsonl'), jsonl(episodes));
    expect((await baton(cwd, ['import', 'all.jsonl', '--dir', 'store'])).code).toBe(0);

    const toFile = await baton(cwd, ['export', '--dir', 'store', '--out', 'gsm.jsonl', '--dataset', 'gsm8k', '--correct', 'true']);
    expect(toFile.code).toBe(0);
    const expected = episodes.filter((e) => e.task.dataset === 'gsm8k' && e.reward?.correct === true);
    expect(toFile.stderr).toBe(`exported ${expected.length} episodes to gsm.jsonl\n`);
    const written = (await readFile(join(cwd, 'gsm.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(written.sort()).toEqual(expected.map(episodeToLine).sort());

    const toStdout = await baton(cwd, ['export', '--tag', 'eval'], { BATON_EPISODES_DIR: join(cwd, 'store') });
    expect(toStdout.stdout.trimEnd().split('\n').sort()).toEqual(
      episodes
        .filter((e) => e.tags.includes('eval'))
        .map(episodeToLine)
        .sort(),
    );

    const all = await baton(cwd, ['export', '--dir', 'store', '--out', 'back.jsonl']);
    expect(all.code).toBe(0);
    expect((await baton(cwd, ['import', 'back.jsonl', '--dir', 'copy'])).stdout).toMatch(/^imported 120, skipped 0 duplicates, 0 bad lines/);
    const copy = (await baton(cwd, ['export', '--dir', 'copy'])).stdout;
    expect(copy.trimEnd().split('\n').sort()).toEqual(episodes.map(episodeToLine).sort());
  });

  it('prints stats as a table or JSON, with unknown cost shown as unknown', async () => {
    const cwd = await workspace();
    const episodes = makeEpisodes(50, 63);
    await writeFile(join(cwd, 'all.jsonl'), jsonl(episodes));
    await baton(cwd, ['import', 'all.jsonl']);
    const json = JSON.parse((await baton(cwd, ['stats', '--json', '--worker', 'local'])).stdout) as EpisodeStats;
    const withLocal = episodes.filter((e) => [...e.steps, ...e.rounds.flatMap((r) => r.steps)].some((s) => s.workerId === 'local'));
    expect(json.count).toBe(withLocal.length);
    expect(json.costUsd).toBeNull();
    const text = (await baton(cwd, ['stats'])).stdout;
    expect(text).toMatch(new RegExp(`^episodes {2}50\\n`));
    // The factory's 'local' worker has no price; a few of its calls also failed.
    expect(text).toMatch(
      /\ncost {6}unknown: \$\d+\.\d{4} known; \d+ episodes? with a failed call, whose tokens were never reported; \d+ episodes with a worker that has no price\n/,
    );
    expect(text).toMatch(/\nworker +calls +input +output +cost +mean latency\n/);
    expect(text).toMatch(/\nlocal +\d+ +\d+ +\d+ +unknown/);
  });

  it('blames failed calls, not prices, when every worker had one, and keeps simulated dollars apart', async () => {
    const cwd = await workspace();
    const worker = (id: string, latencyMs: number) => ({
      id,
      provider: 'simulated',
      model: id,
      price: { input: 1, output: 2 },
      simulated: { skill: { default: 1 }, latencyMs },
    });
    await writeFile(join(cwd, 'pool.json'), JSON.stringify([worker('quick', 0), worker('slow', 1_000)]));
    await writeFile(join(cwd, 'quick.txt'), 'model_id = [0]\nsubtasks = ["Solve it."]\naccess_list = [[]]\n');
    await writeFile(join(cwd, 'slow.txt'), 'model_id = [1]\nsubtasks = ["Solve it."]\naccess_list = [[]]\n');
    const io: CliIo = { stdout: () => {}, stderr: () => {}, readStdin: async () => '', env: {}, cwd };
    const run = (plan: string) =>
      main(['run', '--task', 'What is 6 x 7?', '--answer', '42', '--pool', 'pool.json', '--conductor', `fixed:${plan}`, '--timeout', '50'], io);
    expect(await run('quick.txt')).toBe(0);
    expect(await run('slow.txt')).toBe(1);
    expect(await run('slow.txt')).toBe(1);
    const text = (await baton(cwd, ['stats'])).stdout;
    expect(text).toMatch(
      /\ncost {6}unknown: \$(\d+\.\d{4}) known \(\$\1 of it at simulated prices, not spent\); 2 episodes with a failed call, whose tokens were never reported\n/,
    );
  });

  it('rejects bad usage with exit 2', async () => {
    const cwd = await workspace();
    expect((await baton(cwd, ['stats', '--status', 'great'])).code).toBe(2);
    expect((await baton(cwd, ['export', '--correct', 'maybe'])).code).toBe(2);
    expect((await baton(cwd, ['import'])).code).toBe(2);
    expect((await baton(cwd, ['frobnicate'])).code).toBe(2);
    const noDir = await baton(cwd, ['stats', '--dir', 'typo']);
    expect(noDir.code).toBe(1);
    expect(noDir.stderr).toMatch(/No episode directory at .*typo: pass --dir/);
    expect(await readdir(cwd)).toEqual([]);
    const missing = await baton(cwd, ['import', 'nope.jsonl']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read nope\.jsonl/);
  });

  it('export into a reader that stops early (| head) ends quietly with status 0', async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, 'in.jsonl'), jsonl(makeEpisodes(400, 7)));
    expect((await baton(cwd, ['import', 'in.jsonl'])).code).toBe(0);
    const child = spawn(process.execPath, [resolve('bin/baton.js'), 'episodes', 'export'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = (await once(child, 'exit')) as [number];
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  }, 60_000);
});
