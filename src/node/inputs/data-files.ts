/** data/ as the CLI reads it: files on disk beside the source (or beside the bundled CLI). */
import { readdir, readFile } from 'node:fs/promises';
import type { DataFiles } from '../../core/bench/index.ts';

const DATA = new URL('../../../data/', import.meta.url);

export const NODE_DATA_FILES: DataFiles = {
  read: (path) => readFile(new URL(path, DATA)),
  list: (folder) => readdir(new URL(`${folder}/`, DATA)),
};
