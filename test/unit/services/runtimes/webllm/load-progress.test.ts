import { describe, expect, it } from 'vitest';
import { createWebllmProgressMapper, parseWebllmProgressText } from '../../../../../src/services/runtimes/webllm/index.ts';

const MiB = 2 ** 20;
const FETCH_TAIL = ' It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.';

describe('parseWebllmProgressText', () => {
  it('reads shard counts and megabytes from a download report', () => {
    expect(parseWebllmProgressText(`Fetching param cache[3/108]: 512MB fetched. 12% completed, 30 secs elapsed.${FETCH_TAIL}`)).toEqual({
      phase: 'download',
      step: { done: 3, total: 108 },
      bytes: 512 * MiB,
    });
  });

  it('reads the copy to the GPU, shader compilation and the end', () => {
    expect(parseWebllmProgressText('Loading model from cache[5/108]: 830MB loaded. 20% completed, 4 secs elapsed.')).toEqual({
      phase: 'gpu',
      step: { done: 5, total: 108 },
      bytes: 830 * MiB,
    });
    expect(parseWebllmProgressText('Loading GPU shader modules[40/80]: 50% completed, 7 secs elapsed.')).toEqual({
      phase: 'shaders',
      step: { done: 40, total: 80 },
    });
    expect(parseWebllmProgressText('Finish loading on WebGPU - nvidia')).toEqual({ phase: 'ready', gpu: 'WebGPU - nvidia' });
    expect(parseWebllmProgressText('Start to fetch params')).toEqual({ phase: 'download', bytes: 0 });
  });

  it('leaves text it does not know as "other"', () => {
    expect(parseWebllmProgressText('Verifying model integrity')).toEqual({ phase: 'other' });
  });
});

describe('createWebllmProgressMapper', () => {
  it('measures speed and time left within each phase from successive reports', () => {
    let clock = 1000;
    const map = createWebllmProgressMapper(() => clock);
    expect(map({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' }).bytesPerSecond).toBeUndefined();
    clock += 10_000;
    const downloading = map({
      progress: 0.125,
      timeElapsed: 10,
      text: `Fetching param cache[14/108]: 512MB fetched. 12% completed, 10 secs elapsed.${FETCH_TAIL}`,
    });
    expect(downloading).toEqual({
      phase: 'download',
      fraction: 0.125,
      step: { done: 14, total: 108 },
      bytesLoaded: 512 * MiB,
      bytesTotal: 4096 * MiB,
      bytesPerSecond: 51.2 * MiB,
      secondsLeft: 70,
      text: 'Downloading the model: 512 MB of about 4,096 MB, 51.2 MB/s, about 70 s left',
    });

    clock += 300_000;
    const copyStart = map({ progress: 0.01, timeElapsed: 310, text: 'Loading model from cache[1/108]: 41MB loaded. 1% completed, 310 secs elapsed.' });
    expect(copyStart.phase).toBe('gpu');
    expect(copyStart.bytesPerSecond).toBeUndefined();
    expect(copyStart.secondsLeft).toBeUndefined();
    clock += 2000;
    const copying = map({ progress: 0.51, timeElapsed: 312, text: 'Loading model from cache[55/108]: 2089MB loaded. 51% completed, 312 secs elapsed.' });
    expect(copying.bytesPerSecond).toBe(1024 * MiB);
    expect(copying.secondsLeft).toBeCloseTo(1.96, 10);
    expect(copying.text).toBe('Copying the model to the GPU: 2,089 MB of about 4,096 MB, 1024.0 MB/s, about 2 s left');

    clock += 1000;
    map({ progress: 0.25, timeElapsed: 313, text: 'Loading GPU shader modules[20/80]: 25% completed, 313 secs elapsed.' });
    clock += 3000;
    const shaders = map({ progress: 0.5, timeElapsed: 316, text: 'Loading GPU shader modules[40/80]: 50% completed, 316 secs elapsed.' });
    expect(shaders).toEqual({
      phase: 'shaders',
      fraction: 0.5,
      step: { done: 40, total: 80 },
      secondsLeft: 6,
      text: 'Compiling GPU shaders: 40 of 80, about 6 s left',
    });

    expect(map({ progress: 1, timeElapsed: 320, text: 'Finish loading on WebGPU - apple' })).toEqual({
      phase: 'ready',
      fraction: 1,
      text: 'Ready on WebGPU - apple',
    });
  });

  it('gives minutes for long waits and passes unknown text through', () => {
    let clock = 0;
    const map = createWebllmProgressMapper(() => clock);
    map({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
    clock = 60_000;
    expect(map({ progress: 0.1, timeElapsed: 60, text: 'Fetching param cache[10/100]: 400MB fetched. 10% completed, 60 secs elapsed.' }).text).toBe(
      'Downloading the model: 400 MB of about 4,000 MB, 6.7 MB/s, about 9 min left',
    );
    expect(map({ progress: 0.3, timeElapsed: 61, text: 'Something new' })).toEqual({ phase: 'other', fraction: 0.3, text: 'Something new' });
  });
});
