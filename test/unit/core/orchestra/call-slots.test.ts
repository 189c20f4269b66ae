import { describe, expect, it } from 'vitest';
import { CallSlots } from '../../../../src/core/orchestra/index.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('CallSlots', () => {
  it('lets `limit` calls run and queues the rest in arrival order', async () => {
    const slots = new CallSlots(2);
    const order: number[] = [];
    const releases = await Promise.all([slots.acquire(), slots.acquire()]);
    const waiting = [3, 4, 5].map((n) => slots.acquire().then((release) => (order.push(n), release)));
    await tick();
    expect([slots.running, slots.queued]).toEqual([2, 3]);
    releases[0]();
    releases[0](); // a second release of the same slot frees nothing more
    await tick();
    expect(order).toEqual([3]);
    expect([slots.running, slots.queued]).toEqual([2, 2]);
    releases[1]();
    await tick();
    expect(order).toEqual([3, 4]);
    for (const r of await Promise.all(waiting.slice(0, 2))) r();
    const last = await waiting[2];
    expect(order).toEqual([3, 4, 5]);
    last();
    expect([slots.running, slots.queued]).toEqual([0, 0]);
  });

  it('drops a waiting call whose signal aborts, without taking its turn', async () => {
    const slots = new CallSlots(1);
    const held = await slots.acquire();
    const controller = new AbortController();
    const aborted = slots.acquire(controller.signal);
    const next = slots.acquire();
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'run/aborted' });
    expect(slots.queued).toBe(1);
    held();
    (await next)();
    expect(slots.running).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new CallSlots(0)).toThrow(/at least 1/);
  });
});
