import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GrpoCheckpoint, GrpoStepMetrics } from '../../../../src/core/rl/index.ts';
import { checkpointDir, readLatestCheckpoint } from '../../../../src/node/stores/checkpoint-dir.ts';

const root = await mkdtemp(join(tmpdir(), 'baton-checkpoints-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const checkpoint = (step: number): GrpoCheckpoint => ({
  step,
  seed: 7,
  state: { adapterConfig: `{"r": ${step}}`, adapter: Uint8Array.from({ length: 24 }, (_, i) => (i * step) & 255), optimizer: Uint8Array.of(step, 1, 2, 3) },
  metrics: Array.from({ length: step }, (_, i) => ({ step: i + 1, rewardMean: 0.5 + i / 10 }) as GrpoStepMetrics),
});

describe('checkpointDir', () => {
  it('reads back the newest checkpoint as saved, in PEFT files beside the optimiser and metrics', async () => {
    const dir = join(root, 'a');
    const store = checkpointDir(dir);
    await store.save(checkpoint(1));
    await store.save(checkpoint(2));
    expect(await readLatestCheckpoint(dir)).toEqual(checkpoint(2));
    expect((await readdir(dir)).sort()).toEqual(['latest', 'step-000001', 'step-000002']);
    expect((await readdir(join(dir, 'step-000001'))).sort()).toEqual(['adapter_config.json', 'adapter_model.safetensors', 'checkpoint.json', 'optimizer.bin']);
    expect(await readFile(join(dir, 'step-000001', 'adapter_config.json'), 'utf8')).toBe('{"r": 1}');
  });

  it('says there is no checkpoint yet instead of failing on a missing file', async () => {
    await expect(readLatestCheckpoint(join(root, 'none'))).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/no checkpoint in .*none/) });
  });
});
