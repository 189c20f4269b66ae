import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stepOfEpisode, truncateLog } from '../../../../src/node/stores/run-log.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-run-log-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('truncateLog', () => {
  it('keeps the episodes of steps up to the checkpoint, in order', async () => {
    const file = join(root, 'episodes.jsonl');
    const episodes = [1, 1, 2, 3, 2, 4].map((step, i) => ({ id: `e${i}`, tags: [`step:${step}`, 'train'] }));
    await writeFile(file, episodes.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await truncateLog(file, 2, (e) => stepOfEpisode(e as { tags: string[] }));
    const kept = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(kept).toEqual(['e0', 'e1', 'e2', 'e4']);
  });

  it('leaves a missing file missing', async () => {
    await truncateLog(join(root, 'none.jsonl'), 1, () => 0);
    await expect(readFile(join(root, 'none.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads the step from the "step:N" tag, 0 without one', () => {
    expect(stepOfEpisode({ tags: ['held-out', 'step:12'] })).toBe(12);
    expect(stepOfEpisode({ tags: [] })).toBe(0);
  });
});
