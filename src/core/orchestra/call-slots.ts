import { BatonError } from '../errors/index.ts';

/**
 * A cap on worker calls in flight, shared by every run that holds it (a reward server's --concurrency):
 * a call past the cap waits its turn, first come first served, instead of being refused. A step takes
 * its slot before it reserves budget, so waiting calls hold no dollars. Test:
 * test/unit/core/orchestra/call-slots.test.ts.
 */
export class CallSlots {
  #running = 0;
  readonly #waiting: { grant: () => void }[] = [];

  constructor(readonly limit: number) {
    if (!(Number.isInteger(limit) && limit >= 1))
      throw new BatonError({ code: 'run/config', message: `A concurrency limit must be a whole number of at least 1, got ${limit}.` });
  }

  /** Calls holding a slot now. */
  get running(): number {
    return this.#running;
  }

  /** Calls waiting for one. */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Resolves with a release function once a slot is free; rejects with 'run/aborted' if the signal fires first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const release = () => {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = this.#waiting.shift();
        if (next) next.grant();
        else this.#running--;
      };
    };
    if (signal?.aborted) return Promise.reject(stopped());
    if (this.#running < this.limit) {
      this.#running++;
      return Promise.resolve(release());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = this.#waiting.indexOf(entry);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(stopped());
      };
      // The slot passes straight from the releasing call to this one: #running stays as it is.
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release());
        },
      };
      this.#waiting.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

const stopped = () => new BatonError({ code: 'run/aborted', message: 'Stopped while waiting for a free worker slot.' });
