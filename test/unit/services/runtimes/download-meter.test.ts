import { describe, expect, it } from 'vitest';
import { DownloadMeter, throttledProgress } from '../../../../src/services/runtimes/download-meter.ts';

it('adds files up, and measures speed over the last seconds so an early burst does not promise an early end', () => {
  let clock = 0;
  const meter = new DownloadMeter(() => clock);
  clock = 100;
  meter.update('config.json', 1000, 1000);
  clock = 200;
  expect(meter.update('tokenizer.json', 99_000, 99_000)).toEqual({
    phase: 'download',
    file: 'tokenizer.json',
    unit: 'bytes',
    loaded: 100_000,
    total: 100_000,
    bytesPerSecond: 500_000,
    secondsLeft: 0,
  });
  // Then the weights, 10 kB a second for 10 s.
  let p = meter.update('model.safetensors', 0, 100_000);
  for (let s = 1; s <= 10; s++) {
    clock = 200 + s * 1000;
    p = meter.update('model.safetensors', s * 10_000, 100_000);
  }
  expect(p).toMatchObject({ loaded: 200_000, total: 200_000, bytesPerSecond: 10_000, secondsLeft: 0 });
  // A stalled second: the last 3 s saw 20 kB.
  clock += 1000;
  expect(meter.update('model.safetensors', 100_000, 100_000).bytesPerSecond).toBeCloseTo(20_000 / 3, 6);
});

it('leaves the total and time left out while a file of unknown size is in the load', () => {
  let clock = 0;
  const meter = new DownloadMeter(() => clock);
  clock = 2000;
  const p = meter.update('model.safetensors', 4000);
  expect(p).toEqual({ phase: 'download', file: 'model.safetensors', unit: 'bytes', loaded: 4000, bytesPerSecond: 2000 });
});

describe('throttledProgress', () => {
  it('passes the first report, at most one per 100 ms after it, and always the one that completes', async () => {
    const passed: number[] = [];
    const report = throttledProgress((p) => passed.push(p.loaded));
    for (let loaded = 0; loaded < 500; loaded++) report({ phase: 'download', unit: 'bytes', loaded, total: 1000 });
    expect(passed).toEqual([0]);
    report({ phase: 'download', unit: 'bytes', loaded: 1000, total: 1000 });
    expect(passed).toEqual([0, 1000]);
    await new Promise((r) => setTimeout(r, 120));
    report({ phase: 'gpu', unit: 'items', loaded: 10, total: 1000 });
    expect(passed).toEqual([0, 1000, 10]);
  });
});
