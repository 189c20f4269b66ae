/**
 * `baton train --from-episodes`: offline GRPO on stored groups. Groups where one workflow is always
 * rewarded above another train a LoRA adapter that raises the rewarded workflow's logprob and lowers the
 * other's; infrastructure failures, single-member and equal-reward groups, and episodes without a group
 * are left out and counted; completions without token ids are tokenised from their text; a file with
 * lines that are not episodes is refused with their line numbers.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import type { ChatMessage } from '../../../../../src/core/providers/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';
import type { OfflineStepMetrics } from '../../../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../../../src/engine/model/files-node.ts';
import { loadTokenizer, type Tokenizer } from '../../../../../src/engine/tokenizer/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { makeEpisode } from '../../../../support/episode-factory.ts';
import { TINY_CONDUCTOR_INIT } from '../../../../support/tiny-model.ts';

const GOOD = 'model_id = [1]\nsubtasks = ["Solve it."]\naccess_list = [[]]';
const POOR = 'model_id = [0]\nsubtasks = ["Guess."]\naccess_list = [[]]';
const promptOf = (i: number): ChatMessage[] => [{ role: 'user', content: `Question ${i}: what is ${i} + ${i}?` }];

describe('baton train --from-episodes', () => {
  let dir: string;
  let tokenizer: Tokenizer;
  const base = makeEpisode(seededRandom(4));
  const episode = (group: string | undefined, prompt: ChatMessage[], text: string, reward: number, extra: Partial<Episode> = {}): Episode => {
    const { group: _, ...rest } = base;
    return {
      ...rest,
      id: `ep-${Math.random().toString(36).slice(2)}`,
      status: 'ok',
      prompt,
      completion: { text },
      reward: { value: reward, correct: reward === 1, format: true },
      ...(group ? { group } : {}),
      ...extra,
    };
  };
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    const code = await main(argv, io);
    return { code, io };
  };
  /** Summed logprob of `text` after the prompt, under the base model or with an adapter. */
  const logprob = async (prompt: ChatMessage[], text: string, lora?: string) => {
    const promptIds = tokenizer.encodeChat(prompt, { continueFinal: false });
    await writeFile(join(dir, 'ids.json'), JSON.stringify([...promptIds, ...tokenizer.encode(text)]));
    const scored = await run('logprobs', '--model', 'model', '--weights', 'f32', '--ids', 'ids.json', ...(lora ? ['--lora', lora] : []));
    expect(scored.code, scored.io.err).toBe(0);
    return (JSON.parse(scored.io.out).logprobs as number[]).slice(promptIds.length - 1).reduce((a, b) => a + b, 0);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-offline-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code).toBe(0);
    tokenizer = await loadTokenizer(filesFromDir(join(dir, 'model')));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('raises the logprob of the workflow the groups reward, and counts what it leaves out', async () => {
    const episodes: Episode[] = [];
    for (let q = 0; q < 4; q++) {
      const prompt = promptOf(q);
      // Group 0 keeps its token ids, as a baton train run's episodes do; the others are tokenised from their text.
      const ids = (text: string) => (q === 0 ? { completion: { text, tokenIds: tokenizer.encode(text) } } : {});
      episodes.push(
        episode(`g${q}`, prompt, GOOD, 1, ids(GOOD)),
        episode(`g${q}`, prompt, POOR, 0.5, ids(POOR)),
        episode(`g${q}`, prompt, GOOD, 1, ids(GOOD)),
        episode(`g${q}`, prompt, POOR, 0.5, ids(POOR)),
      );
    }
    episodes.push(
      episode('g1', promptOf(1), GOOD, 0, { status: 'infra-error', reward: { value: 0, correct: false, format: true, infraError: true } }),
      episode('lonely', promptOf(7), POOR, 1),
      episode('same', promptOf(8), GOOD, 1),
      episode('same', promptOf(8), POOR, 1),
      episode(undefined, promptOf(9), POOR, 1),
    );
    await writeFile(join(dir, 'episodes.jsonl'), episodes.map((e) => `${JSON.stringify(e)}\n`).join(''));

    const trained = await run(
      'train',
      '--from-episodes',
      'episodes.jsonl',
      '--model',
      'model',
      '--weights',
      'f32',
      '--questions',
      '2',
      '--lr',
      '0.05',
      '--r',
      '4',
      '--targets',
      'all',
      '--seed',
      '1',
      '--out',
      'offline',
    );
    expect(trained.code, trained.io.err).toBe(0);
    expect(trained.io.err).toContain(
      '--from-episodes: 21 episodes, 4 groups to learn from; left out: 1 single-member and 1 equal-reward groups, 1 infrastructure failures, 1 without a group, 0 without a reward; 12 completions tokenised from their text',
    );
    const metrics: OfflineStepMetrics[] = (await readFile(join(dir, 'offline', 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(metrics.map((m) => [m.step, m.groups, m.completions, m.rewardMean])).toEqual([
      [1, [0, 1], 8, 0.75],
      [2, [2, 3], 8, 0.75],
    ]);
    expect(metrics.every((m) => m.gradNorm > 0)).toBe(true);

    for (const q of [0, 3]) {
      expect(await logprob(promptOf(q), GOOD, 'offline/adapter')).toBeGreaterThan((await logprob(promptOf(q), GOOD)) + 0.1);
      expect(await logprob(promptOf(q), POOR, 'offline/adapter')).toBeLessThan((await logprob(promptOf(q), POOR)) - 0.1);
    }
  }, 240_000);

  it('refuses a file whose lines are not episodes, naming every such line', async () => {
    const good = JSON.stringify(episode('g', promptOf(1), GOOD, 1));
    const { prompt: _, ...noPrompt } = episode('g', promptOf(1), POOR, 0);
    await writeFile(join(dir, 'bad.jsonl'), [good, '{"id": "broken"', good, JSON.stringify(noPrompt), ''].join('\n'));
    const refused = await run('train', '--from-episodes', 'bad.jsonl', '--model', 'model', '--weights', 'f32', '--out', 'refused');
    expect(refused.code).toBe(1);
    expect(refused.io.err).toMatch(/^baton train: .*bad\.jsonl: 2 lines are not an episode: line 2: not valid JSON .*; line 4: .*prompt/);
  });
});
