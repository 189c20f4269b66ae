import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { EpisodeStats, ImportReport } from '../../../core/episodes/index.ts';
import { CliError, parseFlags, printHelp, type CliIo } from '../../cli/index.ts';
import { openEpisodesDir } from '../../stores/index.ts';
import { EXPORT_FLAGS, filterFrom, IMPORT_FLAGS, STATS_FLAGS, USAGE } from './flags.ts';

async function exportCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, EXPORT_FLAGS);
  if (args.help) return printHelp(io, USAGE);
  const { values } = args;
  const filter = filterFrom(values);
  const store = await openEpisodesDir(values.dir, io, false);
  let n = 0;
  if (values.out === undefined) {
    for await (const line of store.exportJsonl(filter)) {
      io.stdout(`${line}\n`);
      n++;
    }
  } else {
    const path = resolve(io.cwd, values.out);
    const out = createWriteStream(path);
    const failed = once(out, 'error').then(([e]) => {
      throw new CliError(`cannot write ${path}: ${(e as Error).message}`);
    });
    for await (const line of store.exportJsonl(filter)) {
      n++;
      if (!out.write(`${line}\n`)) await Promise.race([once(out, 'drain'), failed]);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  }
  io.stderr(`exported ${plural(n, 'episode')}${values.out === undefined ? '' : ` to ${values.out}`}\n`);
  return 0;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function importReportText(report: ImportReport): string {
  const head = `imported ${report.imported}, skipped ${plural(report.skippedDuplicates, 'duplicate')}, ` + plural(report.errors.length, 'bad line');
  return [head, ...report.errors.map((e) => `  line ${e.line}: ${e.message}`)].join('\n') + '\n';
}

/** readline drops lines emitted before its iterator exists, so make the interface only when reading starts. */
async function* linesOf(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  yield* createInterface({ input, crlfDelay: Infinity });
}

async function importCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, IMPORT_FLAGS, { positionals: true });
  if (args.help) return printHelp(io, USAGE);
  const { values, positionals } = args;
  if (positionals.length !== 1) throw new CliError('give one JSONL file to import (or - for stdin)', 2);
  let lines: AsyncIterable<string> | string;
  if (positionals[0] === '-') {
    lines = await io.readStdin();
  } else {
    const input = createReadStream(resolve(io.cwd, positionals[0]));
    await once(input, 'open').catch((e: Error) => {
      throw new CliError(`cannot read ${positionals[0]}: ${e.message}`);
    });
    lines = linesOf(input);
  }
  const store = await openEpisodesDir(values.dir, io, true);
  const report = await store.importJsonl(lines);
  await store.close();
  io.stdout(importReportText(report));
  if (report.errors.length > 0) {
    io.stderr(
      `${plural(report.errors.length, 'line')} not imported: fix them and import the file again ` +
        '(the episodes already imported are skipped as duplicates)\n',
    );
    return 1;
  }
  return 0;
}

const dollars = (x: number) => `$${x.toFixed(4)}`;

/** The dollars known, what of them was simulated, and why the rest is unknown. */
function costText(s: EpisodeStats): string {
  const simulated = s.simulatedCostUsd > 0 ? ` (${dollars(s.simulatedCostUsd)} of it at simulated prices, not spent)` : '';
  if (s.costUsd !== null) return `${dollars(s.costUsd)}${simulated}`;
  const why = [
    ...(s.unknownCost.failedCalls > 0 ? [`${plural(s.unknownCost.failedCalls, 'episode')} with a failed call, whose tokens were never reported`] : []),
    ...(s.unknownCost.noPrice > 0 ? [`${plural(s.unknownCost.noPrice, 'episode')} with a worker that has no price`] : []),
  ];
  return `unknown: ${dollars(s.knownCostUsd)} known${simulated}${why.map((w) => `; ${w}`).join('')}`;
}

function statsText(s: EpisodeStats): string {
  const accuracy = s.accuracy === null ? 'n/a' : `${(s.accuracy * 100).toFixed(1)}%`;
  const cost = costText(s);
  const rows = Object.entries(s.byWorker).map(([id, w]) => [
    id,
    String(w.calls),
    String(w.input),
    String(w.output),
    w.costUsd === null ? `unknown (${dollars(w.knownCostUsd)} known)` : dollars(w.costUsd),
    `${Math.round(w.latencyMs / Math.max(w.calls, 1))} ms`,
  ]);
  const table = [['worker', 'calls', 'input', 'output', 'cost', 'mean latency'], ...rows];
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
  return (
    [
      `episodes  ${s.count}`,
      `graded    ${s.graded}, correct ${s.correct}, accuracy ${accuracy}`,
      `tokens    input ${s.tokens.input}, output ${s.tokens.output}, cached ${s.tokens.cached}, reasoning ${s.tokens.reasoning}`,
      `cost      ${cost}`,
      '',
      ...table.map((r) =>
        r
          .map((cell, c) => cell.padEnd(widths[c]))
          .join('  ')
          .trimEnd(),
      ),
    ].join('\n') + '\n'
  );
}

async function statsCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, STATS_FLAGS);
  if (args.help) return printHelp(io, USAGE);
  const { values } = args;
  const filter = filterFrom(values);
  const stats = await (await openEpisodesDir(values.dir, io, false)).stats(filter);
  io.stdout(values.json ? `${JSON.stringify(stats, null, 2)}\n` : statsText(stats));
  return 0;
}

const SUBCOMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<number>> = {
  export: exportCommand,
  import: importCommand,
  stats: statsCommand,
};

export async function episodesCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help')) {
    io.stdout(USAGE);
    return sub === undefined ? 2 : 0;
  }
  const run = SUBCOMMANDS[sub];
  if (!run) throw new CliError(`unknown subcommand "${sub}" (export, import or stats)`, 2);
  return run(rest, io);
}
