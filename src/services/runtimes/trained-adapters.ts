/**
 * LoRA adapters trained in this browser (the Train page's "Use as Conductor"), kept in IndexedDB so the
 * Ask path loads one by name after any number of reloads: an engine model choice names it as its
 * adapter ({ from: 'trained', name }), and the engine reads it from here as PEFT files, with the
 * conductor.json of the format it was trained in.
 * Test: test/unit/services/runtimes/trained-adapters.test.ts (fake-indexeddb).
 */
import { BatonError } from '../../core/errors/index.ts';
import { TRAINED_FORMAT_FILE, trainedFormatJson, type TrainedFormat } from '../../core/rl/index.ts';
import { openKeyedDb } from '../../core/storage/index.ts';
import { ADAPTER_CONFIG, ADAPTER_WEIGHTS, filesFromMemory, type ModelFiles } from '../../engine/model/index.ts';

export const TRAINED_ADAPTER_DB = 'baton-trained-adapters';
const STORE = 'adapters';

export interface TrainedAdapter {
  name: string;
  /** adapter_config.json text (PEFT). */
  adapterConfig: string;
  /** adapter_model.safetensors bytes (PEFT names). */
  adapter: Uint8Array;
  /** How it was trained to run (the Train page's prompt and format), served as its conductor.json. */
  format?: TrainedFormat;
  /** ISO time it was stored. */
  savedAt: string;
}

const open = (factory: IDBFactory) => openKeyedDb(factory, TRAINED_ADAPTER_DB, 1, { [STORE]: 'name' });

export async function saveTrainedAdapter(adapter: TrainedAdapter, factory: IDBFactory = indexedDB): Promise<void> {
  const db = await open(factory);
  try {
    await db.put(STORE, adapter);
  } finally {
    db.close();
  }
}

export async function readTrainedAdapter(name: string, factory: IDBFactory = indexedDB): Promise<TrainedAdapter | undefined> {
  const db = await open(factory);
  try {
    return (await db.get(STORE, name)) as TrainedAdapter | undefined;
  } finally {
    db.close();
  }
}

/** The stored adapter as PEFT files, read on first use; a missing one says how to get it back. */
export function trainedAdapterFiles(name: string, factory: IDBFactory = indexedDB): ModelFiles {
  let files: Promise<ModelFiles> | undefined;
  const load = () =>
    (files ??= readTrainedAdapter(name, factory).then((a) => {
      if (!a) {
        throw new BatonError({
          code: 'data/not-found',
          message: `The adapter "${name}" trained in this browser is no longer stored (site data cleared?): train it again on the Train page, or choose another Conductor.`,
        });
      }
      const encode = (text: string) => new TextEncoder().encode(text);
      return filesFromMemory(`the adapter ${name} trained in this browser`, {
        [ADAPTER_CONFIG]: encode(a.adapterConfig),
        [ADAPTER_WEIGHTS]: a.adapter,
        ...(a.format ? { [TRAINED_FORMAT_FILE]: encode(trainedFormatJson(a.format)) } : {}),
      });
    }));
  return {
    name: `the adapter ${name} trained in this browser`,
    size: async (path) => (await load()).size(path),
    read: async (path, start, end) => (await load()).read(path, start, end),
  };
}
