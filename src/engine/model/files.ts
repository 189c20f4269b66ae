/**
 * Where a model directory's files come from: disk under Node (files-node.ts), files the user
 * picked (files-picked.ts) or a base URL such as the Hugging Face Hub (files-url.ts).
 * Paths are relative to the model directory ('config.json', 'model-00001-of-00002.safetensors').
 */
import { BatonError } from '../../core/errors/index.ts';

export interface ModelFiles {
  /** Says where the files are, for messages ('/models/qwen', 'https://huggingface.co/Qwen/...'). */
  name: string;
  /** The paths available, where the source can list them (a URL base cannot). */
  list?(): Promise<string[]>;
  /** Byte size, or undefined when the file does not exist. */
  size(path: string): Promise<number | undefined>;
  /** Bytes [start, end) of a file (the whole file by default); a missing file is a BatonError naming it. */
  read(path: string, start?: number, end?: number): Promise<Uint8Array>;
}

export function missingFile(files: ModelFiles, path: string, cause?: unknown): BatonError {
  return new BatonError({
    code: 'engine/model-file',
    message: `${path} is missing from ${files.name}; check that the model directory is complete.`,
    data: { file: path, source: files.name },
    cause,
  });
}

export async function readJson(files: ModelFiles, path: string): Promise<unknown> {
  const text = new TextDecoder().decode(await files.read(path));
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BatonError({
      code: 'engine/model-file',
      message: `${path} in ${files.name} is not valid JSON (${(e as Error).message}); download it again.`,
      data: { file: path, source: files.name },
      cause: e,
    });
  }
}

/** Checks a requested range against a known size and fills in defaults. */
export function clampRange(path: string, size: number, start = 0, end = size): [number, number] {
  if (start < 0 || end < start || end > size) {
    throw new BatonError({
      code: 'engine/model-file',
      message: `${path}: bytes ${start}..${end} lie outside the ${size}-byte file; the file is truncated.`,
      data: { file: path, start, end, size },
    });
  }
  return [start, end];
}

/** Model files held in memory (tests, and models built on the fly). */
export function filesFromMemory(name: string, entries: Record<string, Uint8Array>): ModelFiles {
  const files: ModelFiles = {
    name,
    list: async () => Object.keys(entries),
    size: async (path) => entries[path]?.byteLength,
    read: async (path, start, end) => {
      const bytes = entries[path];
      if (!bytes) throw missingFile(files, path);
      const [s, e] = clampRange(path, bytes.byteLength, start, end);
      return bytes.subarray(s, e);
    },
  };
  return files;
}
