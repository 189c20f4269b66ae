/**
 * OUT/eval.lock: one `baton eval` at a time on an evaluation directory, so two processes never append
 * the same calls and runs to its logs. The file is made with O_EXCL and holds the owner's pid; a lock
 * whose pid is no longer running (a killed evaluation) is taken over. Test: test/unit/node/commands/eval/eval.test.ts.
 */
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../cli/index.ts';

export interface EvalLock {
  release(): Promise<void>;
  /** For a process about to exit at once. */
  releaseSync(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes OUT's lock, or throws a CliError naming the process that holds it. `onTakeOver` hears of a stale lock. */
export async function lockEvalDir(dir: string, onTakeOver: (pid: string) => void): Promise<EvalLock> {
  const file = join(dir, 'eval.lock');
  for (let emptyReads = 0; ;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return { release: () => rm(file, { force: true }), releaseSync: () => rmSync(file, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = (await readFile(file, 'utf8').catch(() => undefined))?.trim();
    if (holder === undefined) continue;
    // Empty: its owner is between making it and writing its pid, or died there; give it a moment.
    if (holder === '' && ++emptyReads < 20) {
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    const pid = Number(holder);
    if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) {
      throw new CliError(`${dir} is in use by another baton eval (pid ${pid}); wait for it to finish or stop it, then --resume`);
    }
    // Moved aside before it is removed, so of two processes taking over one stale lock only one succeeds:
    // the other moves nothing, or moves the first one's new lock and puts it back.
    const aside = `${file}.${process.pid}.stale`;
    try {
      await rename(file, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    const moved = (await readFile(aside, 'utf8')).trim();
    if (moved !== holder) await link(aside, file).catch(() => undefined);
    else onTakeOver(holder || 'unknown');
    await rm(aside, { force: true });
  }
}
