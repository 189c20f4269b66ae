/** data/ as the CLI reads it: files on disk beside the source (or beside the bundled CLI). */
import { readdir, readFile } from 'node:fs/promises';
import type { DataFiles } from '../../core/bench/index.ts';

/** Set by cli/bundle.ts: the bundled CLI reads the data/ beside it (a training bundle's recorded answers). */
declare const BATON_BUNDLED_DATA: string | undefined;

const DATA = new URL(typeof BATON_BUNDLED_DATA === 'string' ? BATON_BUNDLED_DATA : '../../../data/', import.meta.url);

export const NODE_DATA_FILES: DataFiles = {
  read: (path) => readFile(new URL(path, DATA)),
  list: (folder) => readdir(new URL(`${folder}/`, DATA)),
};
