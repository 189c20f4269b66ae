import { isConversationLine, validateConversationLine, type Conversation } from './conversation.ts';
import { validateEpisode } from './episode-schema.ts';
import { numberedLines, parseJsonLine } from './jsonl.ts';
import type { Episode } from './types.ts';

export interface ImportReport {
  imported: number;
  skippedDuplicates: number;
  /** One entry per bad line; the good lines around it are imported all the same. */
  errors: { line: number; message: string }[];
  /** Conversations stored, where the input held some and the store keeps them (the browser's). */
  conversations?: number;
}

/** What a store offers the shared import loop. */
interface ImportTarget {
  /** Which of these ids the store already holds. */
  existingIds(ids: string[]): Promise<Set<string>>;
  putMany(episodes: Episode[]): Promise<void>;
  /** Stores those it does not hold yet and returns how many; a store without conversations passes their lines over. */
  putConversations?(conversations: Conversation[]): Promise<number>;
}

const BATCH = 250;

/**
 * Validates and stores JSONL episodes in batches. Ids already stored, or seen earlier in the same input,
 * are skipped and counted, never stored twice. Only ids are remembered across batches, not episodes.
 * Conversation lines (few, small) are stored at the end.
 */
export async function importEpisodes(source: AsyncIterable<string> | string, target: ImportTarget): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, skippedDuplicates: 0, errors: [] };
  const seen = new Set<string>();
  const conversations: Conversation[] = [];
  let batch: Episode[] = [];

  const flush = async () => {
    const existing = await target.existingIds(batch.map((ep) => ep.id));
    const fresh = batch.filter((ep) => !existing.has(ep.id));
    if (fresh.length > 0) await target.putMany(fresh);
    report.imported += fresh.length;
    report.skippedDuplicates += batch.length - fresh.length;
    batch = [];
  };

  for await (const { number, text } of numberedLines(source)) {
    const json = parseJsonLine(text);
    if (json.ok && isConversationLine(json.value)) {
      const checked = validateConversationLine(json.value);
      if (!checked.ok) report.errors.push({ line: number, message: `conversation ${checked.message}` });
      else if (target.putConversations) conversations.push(checked.conversation);
      continue;
    }
    const parsed = json.ok ? validateEpisode(json.value) : json;
    if (!parsed.ok) {
      report.errors.push({ line: number, message: parsed.message });
      continue;
    }
    if (seen.has(parsed.episode.id)) {
      report.skippedDuplicates++;
      continue;
    }
    seen.add(parsed.episode.id);
    batch.push(parsed.episode);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  if (conversations.length > 0 && target.putConversations) report.conversations = await target.putConversations(conversations);
  return report;
}
