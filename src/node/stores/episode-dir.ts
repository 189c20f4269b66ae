/**
 * The Node episode store: a directory of JSONL files, one per UTC day of `createdAt`
 * (`2026-03-14.jsonl`), each line one episode exactly as `episodeToLine` writes it, so the CLI writes the
 * same lines the browser exports. Other files in the directory are left alone.
 *
 * - Opening streams every file once and keeps, per episode, only its filter keys and where its line is
 *   (file, byte offset, length); `get` and `list` then read just the lines they return.
 * - `put` appends. Replacing or deleting an episode rewrites its day file (temporary file + rename), so
 *   the files always hold exactly the live episodes and other tools need no tombstone rules. A day
 *   file keeps the rewrite cost to one day.
 * - `exportJsonl` and `stats` stream the day files chunk by chunk in date order (write order within a
 *   day), never holding more than one line of episode text.
 * - Lines that are not valid episodes are skipped and listed in `problems`; rewrites keep them as they are.
 * - One writer per directory: the index is not refreshed when another process writes to it.
 */
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, open, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CliIo } from '../cli/index.ts';
import {
  ScanningEpisodeStore,
  assertEpisode,
  comparePositions,
  decodeCursor,
  encodeCursor,
  episodeKeys,
  episodeToLine,
  matchesFilter,
  pageSize,
  parseEpisodeLine,
  storeFullError,
  type Episode,
  type EpisodeFilter,
  type EpisodeKeys,
  type EpisodePage,
  type EpisodeStore,
  type ListOptions,
  type Position,
} from '../../core/episodes/index.ts';
import { BatonError } from '../../core/errors/index.ts';

const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;
const NEWLINE = 0x0a;

interface Entry {
  keys: EpisodeKeys;
  file: string;
  offset: number;
  length: number;
}

export interface DirProblem {
  file: string;
  line: number;
  message: string;
}

interface FileLine {
  number: number;
  offset: number;
  /** Bytes of the line without its newline. */
  length: number;
  text: string;
}

/** A file's lines with their byte offsets, read a chunk at a time; a line is split at '\n' bytes only. */
async function* fileLines(path: string): AsyncGenerator<FileLine> {
  let pending: Buffer[] = [];
  let offset = 0;
  let number = 0;
  const emit = (bytes: Buffer): FileLine => {
    const line = { number: ++number, offset, length: bytes.length, text: bytes.toString('utf8').replace(/\r$/, '') };
    offset += bytes.length + 1;
    return line;
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      yield emit(pending.length ? Buffer.concat([...pending, piece]) : piece);
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length) yield emit(Buffer.concat(pending));
}

/** How many sorted entries come before `p` (`inclusive`: also the one at `p`), by binary search. */
function countBefore(sorted: Entry[], p: Position, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = comparePositions(sorted[mid].keys, p);
    if (c < 0 || (inclusive && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function dayFile(createdAt: string): string {
  return `${createdAt.slice(0, 10)}.jsonl`;
}

function ioError(e: unknown, dir: string, doing: string): BatonError {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return storeFullError(
      e,
      `the directory ${dir}`,
      `Free disk space, or export your episodes (baton episodes export --out FILE) and move old day files (YYYY-MM-DD.jsonl) out of ${dir}.`,
    );
  return new BatonError({
    code: 'store/io',
    message: `Could not ${doing} in ${dir}: ${(e as Error)?.message ?? String(e)}. Check that the directory exists and is writable.`,
    cause: e,
  });
}

export class EpisodeDirStore extends ScanningEpisodeStore implements EpisodeStore {
  readonly #index = new Map<string, Entry>();
  /** Entries sorted by (createdAt, id); rebuilt lazily after writes. */
  #sorted: Entry[] | null = null;
  #problems: DirProblem[] = [];
  /** Writes run one after another, so appends and rewrites never interleave. */
  #writes: Promise<unknown> = Promise.resolve();

  private constructor(readonly dir: string) {
    super();
  }

  /** `create: false` refuses a missing directory (reading commands), instead of making an empty one. */
  static async open(dir: string, options: { create?: boolean } = {}): Promise<EpisodeDirStore> {
    const store = new EpisodeDirStore(dir);
    try {
      if (options.create ?? true) await mkdir(dir, { recursive: true });
      else if (
        !(await stat(dir).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      ) {
        throw new BatonError({
          code: 'data/not-found',
          message: `No episode directory at ${dir}: pass --dir, or set BATON_EPISODES_DIR, to where the episodes are.`,
        });
      }
      for (const file of await store.#dayFiles()) await store.#indexFile(file);
    } catch (e) {
      throw BatonError.is(e) ? e : ioError(e, dir, 'read the episodes');
    }
    return store;
  }

  /** Lines that are not valid episodes, by file and line number. */
  get problems(): readonly DirProblem[] {
    return this.#problems;
  }

  put(ep: Episode): Promise<void> {
    return this.putMany([ep]);
  }

  async putMany(eps: Episode[]): Promise<void> {
    for (const ep of eps) assertEpisode(ep);
    return this.#serially(() => this.#append(eps));
  }

  async get(id: string): Promise<Episode | undefined> {
    const entry = this.#index.get(id);
    return entry && this.#read(entry);
  }

  async list(options: ListOptions = {}): Promise<EpisodePage> {
    const filter = options.filter ?? {};
    const limit = pageSize(options);
    const newest = (options.order ?? 'newest') === 'newest';
    const sorted = this.#inOrder();
    let i = newest ? sorted.length - 1 : 0;
    if (options.cursor !== undefined) {
      const cursor = decodeCursor(options.cursor);
      i = newest ? countBefore(sorted, cursor, false) - 1 : countBefore(sorted, cursor, true);
    }
    const picked: Entry[] = [];
    for (; i >= 0 && i < sorted.length && picked.length < limit; i += newest ? -1 : 1) {
      if (matchesFilter(sorted[i].keys, filter)) picked.push(sorted[i]);
    }
    const more = i >= 0 && i < sorted.length;
    const episodes = await Promise.all(picked.map((entry) => this.#read(entry)));
    const last = episodes.at(-1);
    return { episodes, nextCursor: more && picked.length === limit && last ? encodeCursor(last) : null };
  }

  delete(id: string): Promise<boolean> {
    return this.#serially(async () => {
      const entry = this.#index.get(id);
      if (!entry) return false;
      await this.#rewrite(entry.file, new Set([entry.offset]));
      return true;
    });
  }

  async count(filter: EpisodeFilter = {}): Promise<number> {
    let n = 0;
    for (const entry of this.#index.values()) if (matchesFilter(entry.keys, filter)) n++;
    return n;
  }

  async close(): Promise<void> {
    await this.#writes;
  }

  #serially<T>(write: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(write);
    this.#writes = run.catch(() => {});
    return run;
  }

  async #dayFiles(): Promise<string[]> {
    return (await readdir(this.dir)).filter((f) => DAY_FILE.test(f)).sort();
  }

  async #indexFile(file: string): Promise<void> {
    for (const [id, entry] of this.#index) if (entry.file === file) this.#index.delete(id);
    this.#problems = this.#problems.filter((p) => p.file !== file);
    this.#sorted = null;
    const path = join(this.dir, file);
    if (
      !(await stat(path).then(
        () => true,
        () => false,
      ))
    )
      return;
    for await (const line of fileLines(path)) {
      if (line.text.trim() === '') continue;
      const parsed = parseEpisodeLine(line.text);
      if (!parsed.ok) this.#problems.push({ file, line: line.number, message: parsed.message });
      else this.#index.set(parsed.episode.id, { keys: episodeKeys(parsed.episode), file, offset: line.offset, length: line.length });
    }
  }

  /** Appends all or nothing: a failed append truncates every touched file back to its old size. */
  async #append(eps: Episode[]): Promise<void> {
    const latest = new Map(eps.map((ep) => [ep.id, ep]));
    const byFile = new Map<string, Episode[]>();
    for (const ep of latest.values()) {
      const file = dayFile(ep.createdAt);
      if (!byFile.has(file)) byFile.set(file, []);
      byFile.get(file)!.push(ep);
    }
    const replaced = [...latest.keys()].flatMap((id) => this.#index.get(id) ?? []);

    const sizes = new Map<string, number>();
    const added: Entry[] = [];
    try {
      for (const [file, group] of byFile) {
        const path = join(this.dir, file);
        const size = await stat(path).then(
          (s) => s.size,
          () => 0,
        );
        sizes.set(file, size);
        const separator = size > 0 && !(await this.#endsWithNewline(path, size)) ? '\n' : '';
        const lines = group.map(episodeToLine);
        let offset = size + separator.length;
        group.forEach((ep, k) => {
          const length = Buffer.byteLength(lines[k]);
          added.push({ keys: episodeKeys(ep), file, offset, length });
          offset += length + 1;
        });
        await appendFile(path, `${separator}${lines.join('\n')}\n`);
      }
    } catch (e) {
      for (const [file, size] of sizes) await truncate(join(this.dir, file), size).catch(() => {});
      throw ioError(e, this.dir, 'save episodes');
    }
    for (const entry of added) this.#index.set(entry.keys.id, entry);
    this.#sorted = null;
    // The new lines are in; now drop the lines they replace (which lie before the appended ones).
    const stale = new Map<string, Set<number>>();
    for (const entry of replaced) {
      if (!stale.has(entry.file)) stale.set(entry.file, new Set());
      stale.get(entry.file)!.add(entry.offset);
    }
    for (const [file, offsets] of stale) await this.#rewrite(file, offsets);
  }

  async #endsWithNewline(path: string, size: number): Promise<boolean> {
    const handle = await open(path, 'r');
    try {
      const { buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
      return buffer[0] === NEWLINE;
    } finally {
      await handle.close();
    }
  }

  /** Rewrites a day file without the lines at `drop` offsets, then re-indexes it. */
  async #rewrite(file: string, drop: Set<number>): Promise<void> {
    const path = join(this.dir, file);
    const temp = `${path}.rewrite`;
    let kept = 0;
    try {
      const out = await open(temp, 'w');
      try {
        for await (const line of fileLines(path)) {
          if (drop.has(line.offset)) continue;
          await out.write(`${line.text}\n`);
          kept++;
        }
      } finally {
        await out.close();
      }
      if (kept > 0) await rename(temp, path);
      else await Promise.all([rm(path), rm(temp)]);
    } catch (e) {
      await rm(temp, { force: true });
      throw ioError(e, this.dir, `rewrite ${file}`);
    }
    await this.#indexFile(file);
  }

  async #read(entry: Entry): Promise<Episode> {
    const handle = await open(join(this.dir, entry.file), 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(entry.length), 0, entry.length, entry.offset);
      const parsed = parseEpisodeLine(buffer.subarray(0, bytesRead).toString('utf8'));
      if (!parsed.ok || parsed.episode.id !== entry.keys.id) throw new Error(parsed.ok ? 'a different episode' : parsed.message);
      return parsed.episode;
    } catch (e) {
      throw new BatonError({
        code: 'store/corrupt',
        message:
          `${entry.file} changed while Baton was using it (${(e as Error).message}); ` +
          `only one Baton process may write ${this.dir} at a time. Run the command again.`,
        cause: e,
      });
    } finally {
      await handle.close();
    }
  }

  #inOrder(): Entry[] {
    this.#sorted ??= [...this.#index.values()].sort((a, b) => comparePositions(a.keys, b.keys));
    return this.#sorted;
  }

  /** Live episodes matching the filter, one day file at a time, one line at a time. */
  protected async *scan(filter: EpisodeFilter): AsyncGenerator<Episode> {
    for (const file of await this.#dayFiles()) {
      const day = file.slice(0, 10);
      if ((filter.from && day < filter.from.slice(0, 10)) || (filter.to && day > filter.to.slice(0, 10))) continue;
      for await (const line of fileLines(join(this.dir, file))) {
        const parsed = parseEpisodeLine(line.text);
        if (!parsed.ok) continue;
        const entry = this.#index.get(parsed.episode.id);
        // Only the line the index holds for this id is live (a hand-merged file may repeat an id).
        if (entry?.file === file && entry.offset === line.offset && matchesFilter(entry.keys, filter)) yield parsed.episode;
      }
    }
  }

  protected async existingIds(ids: string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.#index.has(id)));
  }
}

/**
 * The CLI's episode directory: the given one, else $BATON_EPISODES_DIR, else ./episodes. Lines that did not
 * parse are reported on stderr (a few, then a count) and left in place.
 */
export async function openEpisodesDir(dir: string | undefined, io: CliIo, create: boolean): Promise<EpisodeDirStore> {
  const store = await EpisodeDirStore.open(resolve(io.cwd, dir ?? io.env.BATON_EPISODES_DIR ?? 'episodes'), { create });
  for (const p of store.problems.slice(0, 5)) io.stderr(`warning: ${p.file} line ${p.line} skipped: ${p.message}\n`);
  if (store.problems.length > 5) io.stderr(`warning: ${store.problems.length - 5} more bad lines skipped\n`);
  return store;
}
