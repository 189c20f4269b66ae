/** OUT/eval.lock: one holder, a refusal naming it, and a dead holder's lock taken over once. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockEvalDir } from '../../../../src/node/stores/eval-lock.ts';

/** The pid of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('lockEvalDir', () => {
  it('holds OUT for one process, refuses another naming the pid, and frees it on release', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-lock-'));
    const lock = await lockEvalDir(dir, () => undefined);
    expect(readFileSync(join(dir, 'eval.lock'), 'utf8')).toBe(`${process.pid}\n`);
    await expect(lockEvalDir(dir, () => undefined)).rejects.toThrow(`${dir} is in use by another baton eval (pid ${process.pid})`);
    await lock.release();
    expect(existsSync(join(dir, 'eval.lock'))).toBe(false);
    await (await lockEvalDir(dir, () => undefined)).release();
  });

  it("lets only one of two takers have a dead process's lock", async () => {
    for (let round = 0; round < 5; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'baton-lock-'));
      const dead = deadPid();
      writeFileSync(join(dir, 'eval.lock'), `${dead}\n`);
      const heard: string[] = [];
      const results = await Promise.allSettled([lockEvalDir(dir, (pid) => heard.push(pid)), lockEvalDir(dir, (pid) => heard.push(pid))]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(heard).toEqual([String(dead)]);
      expect(readFileSync(join(dir, 'eval.lock'), 'utf8')).toBe(`${process.pid}\n`);
    }
  });

  it('takes over a lock left empty by a process that died before writing its pid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-lock-'));
    writeFileSync(join(dir, 'eval.lock'), '');
    const heard: string[] = [];
    await (await lockEvalDir(dir, (pid) => heard.push(pid))).release();
    expect(heard).toEqual(['unknown']);
  });
});
