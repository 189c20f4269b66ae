import { clearReplay, importReplayCsv, loadReplay, type StoredReplay } from '../../../core/providers/replay/index.ts';
import { toBatonError } from '../../../core/errors/index.ts';

interface ReplaySummary {
  sources: string[];
  models: string[];
  questions: number;
  /** A few of the recorded questions (normalised text), so the user can ask one. */
  examples: string[];
}

function summarise(replay: StoredReplay | undefined): ReplaySummary | undefined {
  if (!replay) return undefined;
  const { table, sources } = replay;
  return { sources, models: table.models, questions: table.entries.size, examples: [...table.entries.keys()].slice(0, 3) };
}

/** Recorded answers for 'replay' workers (the Workers page's replay panel): what is loaded, import, clear. */
export class ReplayState {
  summary = $state.raw<ReplaySummary | undefined>(undefined);
  error = $state<string | undefined>(undefined);

  async refresh(): Promise<void> {
    try {
      this.summary = summarise(await loadReplay(indexedDB));
    } catch (e) {
      this.error = toBatonError(e, 'store/io').message;
    }
  }

  async importFiles(files: { name: string; text: string }[]): Promise<void> {
    this.error = undefined;
    try {
      this.summary = summarise(await importReplayCsv(indexedDB, files));
    } catch (e) {
      this.error = toBatonError(e, 'data/invalid').message;
    }
  }

  async clear(): Promise<void> {
    await clearReplay(indexedDB);
    this.summary = undefined;
  }
}
