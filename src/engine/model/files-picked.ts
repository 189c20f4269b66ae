/**
 * Model files the user picked in the browser (an <input type="file" multiple webkitdirectory> or a
 * drop). Reads slice the File, so a multi-GB shard is never loaded whole.
 */
import { clampRange, missingFile, type ModelFiles } from './files.ts';

/** 'qwen/config.json' from a picked folder and 'config.json' from loose files both become 'config.json'. */
function pathInModel(file: File): string {
  const rel = (file as File & { webkitRelativePath?: string }).webkitRelativePath;
  if (!rel) return file.name;
  const slash = rel.indexOf('/');
  return slash < 0 ? rel : rel.slice(slash + 1);
}

export function filesFromPicked(picked: Iterable<File> | ArrayLike<File>, name = 'the picked files'): ModelFiles {
  const byPath = new Map<string, File>();
  for (const f of Array.from(picked)) byPath.set(pathInModel(f), f);
  const files: ModelFiles = {
    name,
    list: async () => [...byPath.keys()],
    size: async (path) => byPath.get(path)?.size,
    async read(path, start, end) {
      const f = byPath.get(path);
      if (!f) throw missingFile(files, path);
      const [s, e] = clampRange(path, f.size, start, end);
      return new Uint8Array(await f.slice(s, e).arrayBuffer());
    },
  };
  return files;
}
