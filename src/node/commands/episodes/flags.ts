/** `baton episodes`' flags and help: each subcommand's table, and the filters they share. */
import type { EpisodeFilter } from '../../../core/episodes/index.ts';
import { choice, optionsHelp, text, toggle, type FlagValues } from '../../cli/index.ts';

const STATUSES = ['ok', 'format-error', 'infra-error', 'aborted', 'budget'] as const;

const isoTime = (time: string) => (Number.isNaN(Date.parse(time)) ? `must be an ISO time, got "${time}"` : undefined);

const FILTER_FLAGS = {
  dataset: text({ arg: 'X', help: 'episodes of this data set' }),
  tag: text({ arg: 'T', help: 'episodes with this tag' }),
  group: text({ arg: 'G', help: 'episodes of this GRPO group' }),
  model: text({ arg: 'CONDUCTOR_MODEL', help: 'episodes of this Conductor model' }),
  worker: text({ arg: 'WORKER_ID', help: 'episodes that called this worker' }),
  status: choice(STATUSES, { arg: 'S', help: STATUSES.join(' | ') }),
  correct: choice(['true', 'false'], { arg: 'true|false', help: 'graded right, or wrong' }),
  from: text({ arg: 'ISO_TIME', help: 'created at or after (inclusive)', check: isoTime }),
  to: text({ arg: 'ISO_TIME', help: 'created before (exclusive)', check: isoTime }),
};

const DIR_FLAG = text({ arg: 'D', help: 'the episode directory (default: $BATON_EPISODES_DIR, else ./episodes): one JSONL file per UTC day' });

export const EXPORT_FLAGS = { dir: DIR_FLAG, out: text({ arg: 'FILE', help: 'where the JSONL goes (default: stdout)' }), ...FILTER_FLAGS };
export const IMPORT_FLAGS = { dir: DIR_FLAG };
export const STATS_FLAGS = { dir: DIR_FLAG, json: toggle({ help: 'the stats as JSON' }), ...FILTER_FLAGS };

export const USAGE = `usage:
  baton episodes export [--dir D] [--out FILE] [filters]   write episodes as JSONL (stdout without --out)
  baton episodes import FILE [--dir D]                      add the episodes of a JSONL file ('-' = stdin)
  baton episodes stats [--dir D] [--json] [filters]         counts, accuracy, tokens and cost per worker

options:
${optionsHelp({ dir: DIR_FLAG, out: EXPORT_FLAGS.out, json: STATS_FLAGS.json })}
filters:
${optionsHelp(FILTER_FLAGS)}`;

export function filterFrom(v: FlagValues<typeof FILTER_FLAGS>): EpisodeFilter {
  const filter: EpisodeFilter = {
    dataset: v.dataset,
    tag: v.tag,
    group: v.group,
    conductorModel: v.model,
    workerId: v.worker,
    status: v.status,
    correct: v.correct === undefined ? undefined : v.correct === 'true',
    // Stored times are compared as text in toISOString's shape, so bring the bounds to that shape.
    from: v.from === undefined ? undefined : new Date(v.from).toISOString(),
    to: v.to === undefined ? undefined : new Date(v.to).toISOString(),
  };
  return Object.fromEntries(Object.entries(filter).filter(([, x]) => x !== undefined));
}
