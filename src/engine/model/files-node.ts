/**
 * Model files on local disk. Node only (node:fs): not exported from the model folder's index, so
 * browser bundles never see it; Node code imports this file directly.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { clampRange, missingFile, type ModelFiles } from './files.ts';

async function listDir(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listDir(root, full)));
    else out.push(relative(root, full).split('\\').join('/'));
  }
  return out;
}

export function filesFromDir(dir: string): ModelFiles {
  const files: ModelFiles = {
    name: dir,
    list: () => listDir(dir, dir),
    async size(path) {
      try {
        const s = await stat(join(dir, path));
        return s.isFile() ? s.size : undefined;
      } catch {
        return undefined;
      }
    },
    async read(path, start, end) {
      let handle;
      try {
        handle = await open(join(dir, path), 'r');
      } catch (e) {
        throw missingFile(files, path, e);
      }
      try {
        const [s, e] = clampRange(path, (await handle.stat()).size, start, end);
        const out = new Uint8Array(e - s);
        let done = 0;
        while (done < out.byteLength) {
          const { bytesRead } = await handle.read(out, done, out.byteLength - done, s + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return out.subarray(0, done);
      } finally {
        await handle.close();
      }
    },
  };
  return files;
}
