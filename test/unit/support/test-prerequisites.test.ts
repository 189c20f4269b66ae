// `npm test`'s pretest, run as npm runs it: a separate Node process, judged by its exit code and stderr.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../support/browser.ts';

const SCRIPT = resolve(import.meta.dirname, '../../support/test-prerequisites.ts');
const MISSING_CHROMIUM = '/nonexistent/chromium';
// Each case is a cold start of tsx on shared cores.
const TIMEOUT = 60_000;

/** PATH is the test's to choose (it decides whether there is an apt-get), so Node is named by its full path. */
async function pretest(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], { env }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-pretest-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('test prerequisites (pretest)', () => {
  it.skipIf(!existsSync(CHROMIUM_PATH))(
    'passes quietly where Chromium and SwiftShader are installed',
    async () => {
      expect(await pretest({ PATH: process.env.PATH ?? '' })).toEqual({ code: 0, stderr: '' });
    },
    TIMEOUT,
  );

  it(
    'without apt-get, names what is missing and how to point the tests at a Chromium, and fails',
    async () => {
      const { code, stderr } = await pretest({ PATH: dir, CHROMIUM_PATH: MISSING_CHROMIUM });
      expect(code).toBe(1);
      expect(stderr).toContain(`npm test needs Chromium (${MISSING_CHROMIUM})`);
      expect(stderr).toContain('Set CHROMIUM_PATH');
    },
    TIMEOUT,
  );

  it.skipIf(process.getuid?.() !== 0)(
    "as root with apt-get, installs Debian's chromium package and checks again",
    async () => {
      // A stand-in apt-get that records its calls: the real one would change this machine's packages.
      const bin = join(dir, 'bin');
      const calls = join(dir, 'apt-get-calls');
      await mkdir(bin);
      await writeFile(join(bin, 'apt-get'), `#!/bin/sh\necho "$* [$DEBIAN_FRONTEND]" >> '${calls}'\n`);
      await chmod(join(bin, 'apt-get'), 0o755);
      const { code, stderr } = await pretest({ PATH: bin, CHROMIUM_PATH: MISSING_CHROMIUM });
      expect((await readFile(calls, 'utf8')).trim().split('\n')).toEqual([
        '--version []',
        'update -qq [noninteractive]',
        'install -y -qq chromium python3 [noninteractive]',
      ]);
      // The stand-in installs nothing, so the second look still finds Chromium missing.
      expect(code).toBe(1);
      expect(stderr).toContain("installing Debian's chromium package");
      // Its PATH holds no python3 either: the same apt-get call brings it.
      expect(stderr).toContain("installing Debian's python3 package");
      expect(stderr).toContain('sudo apt-get install -y chromium');
    },
    TIMEOUT,
  );
});
