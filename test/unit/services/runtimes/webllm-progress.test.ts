import { describe, expect, it } from 'vitest';
import { webllmLoadProgress } from '../../../../src/services/runtimes/webllm-progress.ts';
import { createWebllmProgressMapper } from '../../../../src/services/runtimes/webllm/index.ts';

const MiB = 2 ** 20;

describe('webllmLoadProgress', () => {
  it("puts web-llm's phases in the shape of every Conductor load: bytes, speed, time left, then shader counts", () => {
    let clock = 0;
    const map = createWebllmProgressMapper(() => clock);
    expect(webllmLoadProgress(map({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' }))).toEqual({ phase: 'download', unit: 'bytes', loaded: 0 });
    clock = 10_000;
    expect(
      webllmLoadProgress(map({ progress: 0.25, timeElapsed: 10, text: 'Fetching param cache[27/108]: 256MB fetched. 25% completed, 10 secs elapsed.' })),
    ).toEqual({
      phase: 'download',
      unit: 'bytes',
      loaded: 256 * MiB,
      total: 1024 * MiB,
      bytesPerSecond: 25.6 * MiB,
      secondsLeft: 30,
    });
    clock = 11_000;
    map({ progress: 0, timeElapsed: 11, text: 'Loading model from cache[1/108]: 0MB loaded. 0% completed, 11 secs elapsed.' });
    clock = 12_000;
    expect(
      webllmLoadProgress(map({ progress: 0.5, timeElapsed: 12, text: 'Loading model from cache[54/108]: 512MB loaded. 50% completed, 12 secs elapsed.' })),
    ).toEqual({
      phase: 'gpu',
      unit: 'bytes',
      loaded: 512 * MiB,
      total: 1024 * MiB,
      bytesPerSecond: 512 * MiB,
      secondsLeft: 1,
    });
    expect(webllmLoadProgress(map({ progress: 0.5, timeElapsed: 13, text: 'Loading GPU shader modules[40/80]: 50% completed, 13 secs elapsed.' }))).toEqual({
      phase: 'shaders',
      unit: 'items',
      loaded: 40,
      total: 80,
    });
  });

  it('has nothing to draw for "ready" and for text it does not know', () => {
    const map = createWebllmProgressMapper(() => 0);
    expect(webllmLoadProgress(map({ progress: 1, timeElapsed: 20, text: 'Finish loading on WebGPU - nvidia' }))).toBeUndefined();
    expect(webllmLoadProgress(map({ progress: 0.3, timeElapsed: 20, text: 'Something new' }))).toBeUndefined();
  });
});
