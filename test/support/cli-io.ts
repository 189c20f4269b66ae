/** A CliIo that records what a command prints, for running commands in-process. */
import type { CliIo } from '../../src/node/cli/io.ts';

export function recordingIo(cwd: string, stdin = ''): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
    readStdin: async () => stdin,
    env: {},
    cwd,
  };
  return io;
}
