/** The Conductor worker's GPU queue: one task at a time in arrival order; a stopped waiter leaves, a failure passes the turn on. */
import { describe, expect, it } from 'vitest';
import { GpuQueue } from '../../../../src/engine/runtime/gpu-queue.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('GpuQueue', () => {
  it('runs tasks one at a time, in the order they came', async () => {
    const queue = new GpuQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      running--;
      return name;
    };
    expect(await Promise.all([queue.run(task('a')), queue.run(task('b')), queue.run(task('c'))])).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('lets a caller stopped while waiting leave at once, without its task running or the order changing', async () => {
    const queue = new GpuQueue();
    const log: string[] = [];
    let finishFirst!: () => void;
    const first = queue.run(() => new Promise<void>((r) => (finishFirst = r)).then(() => log.push('first')));
    const stop = new AbortController();
    const waiting = queue.run(async () => log.push('stopped one ran'), stop.signal);
    const third = queue.run(async () => log.push('third'));
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'run/aborted' });
    await tick();
    expect(log).toEqual([]); // the third still waits for the first
    finishFirst();
    await Promise.all([first, third]);
    expect(log).toEqual(['first', 'third']);
  });

  it('passes the turn on after a task fails', async () => {
    const queue = new GpuQueue();
    const failing = queue.run(async () => {
      throw new Error('out of GPU memory');
    });
    const next = queue.run(async () => 'ran');
    await expect(failing).rejects.toThrow('out of GPU memory');
    expect(await next).toBe('ran');
  });
});
