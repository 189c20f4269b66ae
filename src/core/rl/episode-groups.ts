/**
 * GRPO groups from stored episodes (an export of the app's Episodes page, or a `baton train` run's
 * episodes.jsonl), for offline updates: episodes sharing a group id form a group, in the order their
 * first member appears; each one's prompt (the chat messages the Conductor saw) and completion token ids
 * (re-tokenised from the completion text where an episode kept none) and reward become a GrpoBatch group.
 * Left out, and counted: episodes without a group id or a reward, infrastructure failures (they say
 * nothing of the Conductor's choice), and groups that cannot teach anything (one member, or every reward equal:
 * all advantages 0). A line that is not an episode stops the reading; every such line is reported by number.
 * Test: through baton train --from-episodes, test/engine/node/commands/train/from-episodes.test.ts.
 */
import { numberedLines, parseEpisodeLine, type Episode } from '../episodes/index.ts';
import { BatonError } from '../errors/index.ts';
import type { ChatMessage } from '../providers/index.ts';
import type { GrpoBatchGroup } from './grpo-batch.ts';

/** The model's tokenizer as the offline update needs it. */
export interface EpisodeTokenizer {
  /** The prompt as the policy tokenises it (EnginePolicy.promptIds). */
  promptIds(messages: readonly ChatMessage[], continueFinal: boolean): number[];
  encode(text: string): number[];
}

interface EpisodeGroupsReport {
  /** Episodes read. */
  episodes: number;
  /** Groups that train: two or more members whose rewards differ. */
  groups: number;
  ungrouped: number;
  unrewarded: number;
  infraFailed: number;
  singletons: number;
  equalRewards: number;
  /** Completions tokenised from their text (the episode kept no token ids). */
  retokenised: number;
}

export interface EpisodeGroup extends GrpoBatchGroup {
  id: string;
}

/** How many malformed lines the error lists before "and N more". */
const LISTED = 5;

export async function groupsFromEpisodes(
  text: string,
  source: string,
  tokenizer: EpisodeTokenizer,
): Promise<{ groups: EpisodeGroup[]; report: EpisodeGroupsReport }> {
  const bad: string[] = [];
  const episodes: Episode[] = [];
  for await (const line of numberedLines(text)) {
    const parsed = parseEpisodeLine(line.text);
    if (parsed.ok) episodes.push(parsed.episode);
    else bad.push(`line ${line.number}: ${parsed.message}`);
  }
  if (bad.length > 0) {
    const more = bad.length > LISTED ? `; and ${bad.length - LISTED} more` : '';
    throw new BatonError({
      code: 'data/invalid',
      message: `${source}: ${bad.length} line${bad.length === 1 ? ' is' : 's are'} not an episode: ${bad.slice(0, LISTED).join('; ')}${more}`,
      data: { lines: bad.length },
    });
  }
  return groupsOfEpisodes(episodes, tokenizer);
}

/** The groups of episodes already read (the episode store's, or a file's), as groupsFromEpisodes forms them. */
export function groupsOfEpisodes(episodes: Iterable<Episode>, tokenizer: EpisodeTokenizer): { groups: EpisodeGroup[]; report: EpisodeGroupsReport } {
  const byGroup = new Map<string, Episode[]>();
  const report: EpisodeGroupsReport = { episodes: 0, groups: 0, ungrouped: 0, unrewarded: 0, infraFailed: 0, singletons: 0, equalRewards: 0, retokenised: 0 };
  for (const e of episodes) {
    report.episodes++;
    if (e.group === undefined) report.ungrouped++;
    else if (e.reward?.infraError || e.status === 'infra-error') report.infraFailed++;
    else if (e.reward === undefined) report.unrewarded++;
    else byGroup.set(e.group, [...(byGroup.get(e.group) ?? []), e]);
  }
  const groups: EpisodeGroup[] = [];
  for (const [id, members] of byGroup) {
    if (members.length < 2) {
      report.singletons++;
      continue;
    }
    if (members.every((e) => e.reward!.value === members[0].reward!.value)) {
      report.equalRewards++;
      continue;
    }
    const messages = members[0].prompt;
    const completions = members.map((e) => {
      if (e.completion.tokenIds === undefined) report.retokenised++;
      return { ids: e.completion.tokenIds ?? tokenizer.encode(e.completion.text), reward: e.reward!.value };
    });
    groups.push({ id, promptIds: tokenizer.promptIds(messages, messages.at(-1)?.role === 'assistant'), completions });
  }
  report.groups = groups.length;
  return { groups, report };
}
