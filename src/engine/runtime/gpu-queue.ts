/**
 * One queue for a GPU's generations, in the Conductor's web worker as under the CLI: the Conductor and the local
 * pool workers take turns, so no two generations decode at once (they would share the device's time and memory,
 * and web-llm's engine answers one request at a time). First come, first served; a caller stopped while waiting
 * leaves the queue.
 */
import { BatonError } from '../../core/errors/index.ts';

const stopped = () => new BatonError({ code: 'run/aborted', message: 'Stopped.' });

export class GpuQueue {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `work` after every task queued before it has finished. */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    return new Promise<T>((resolve, reject) => {
      // A task that leaves early hands its turn on only when its own turn comes, so the order stays.
      const leave = () => {
        reject(stopped());
        void previous.then(release);
      };
      if (signal?.aborted) return leave();
      signal?.addEventListener('abort', leave, { once: true });
      void previous.then(() => {
        if (signal?.aborted) return;
        signal?.removeEventListener('abort', leave);
        work().then(resolve, reject).finally(release);
      });
    });
  }
}
