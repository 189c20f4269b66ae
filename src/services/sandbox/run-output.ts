/**
 * What one run printed on file descriptors 1 and 2, kept as bytes (a character split across two writes
 * decodes whole) up to a limit on both together: past it a write fails, which Python sees as an OSError
 * where it printed, and the run is reported as stopped at the output limit.
 */
import type { PythonRun } from '../../core/reward/index.ts';

type Stream = 'stdout' | 'stderr';

export class RunOutput {
  readonly #limit: number;
  readonly #chunks: Record<Stream, Uint8Array[]> = { stdout: [], stderr: [] };
  #bytes = 0;
  #overflowed = false;

  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  write(stream: Stream, buffer: Uint8Array): number {
    const room = this.#limit - this.#bytes;
    if (buffer.length > room) {
      this.#keep(stream, buffer.subarray(0, room));
      this.#overflowed = true;
      throw new Error('output limit');
    }
    this.#keep(stream, buffer);
    return buffer.length;
  }

  text(): Pick<PythonRun, 'stdout' | 'stderr'> {
    const decode = (chunks: Uint8Array[]) => {
      const bytes = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
      chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.length), 0);
      return new TextDecoder().decode(bytes);
    };
    return { stdout: decode(this.#chunks.stdout), stderr: decode(this.#chunks.stderr) };
  }

  /** The report of a run that printed past the limit, whatever it did after. */
  overflow(): Partial<PythonRun> {
    if (!this.#overflowed) return {};
    const mib = Math.round(this.#limit / 2 ** 20);
    return {
      status: 'exception',
      exitCode: 1,
      exception: { type: 'OutputLimit', message: `printed more than ${mib} MiB; the output was cut there`, traceback: '' },
    };
  }

  #keep(stream: Stream, bytes: Uint8Array): void {
    this.#chunks[stream].push(bytes.slice());
    this.#bytes += bytes.length;
  }
}
