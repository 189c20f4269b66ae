import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { validateEpisode, type Episode } from '../../../../../src/core/episodes/index.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/index.ts';
import { renderWorkflow, type Workflow } from '../../../../../src/core/workflow/index.ts';
import { main } from '../../../../../src/node/main.ts';
import type { CliIo } from '../../../../../src/node/cli/io.ts';

const workers: WorkerSpec[] = ['a', 'b', 'c'].map((id) => ({
  id,
  provider: 'simulated',
  model: id,
  price: { input: 1, output: 2 },
  simulated: { skill: { default: 0.7 } },
}));

let dir: string;
let out: string;
let err: string;
let io: CliIo;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-run-'));
  out = '';
  err = '';
  io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), readStdin: async () => '', env: {}, cwd: dir };
  writeFileSync(join(dir, 'pool.json'), JSON.stringify({ workers }));
});

function write(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

const run = (...args: string[]) => main(['run', '--task', 'What is 17 + 25?', '--answer', '42', '--pool', 'pool.json', ...args], io);
const episodesIn = (file: string): Episode[] =>
  readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** The responses a worker was shown, in order, read back from what it was sent. */
function responsesShown(content: string): string[] {
  return [...content.matchAll(/<Agent (\d+) response>\n([\s\S]*?)\n<\/Agent \1 response>/g)].map((m) => m[2]);
}

describe('baton run', () => {
  it('sends each worker exactly the steps its access list names, and records it in the episode', async () => {
    const workflow: Workflow = {
      steps: [
        { worker: 0, subtask: 'Solve it.', access: [] },
        { worker: 1, subtask: 'Solve it another way.', access: [] },
        { worker: 2, subtask: 'Check the second attempt.', access: [1] },
        { worker: 0, subtask: 'Compare the first and third.', access: [2, 0] },
        { worker: 1, subtask: 'Give the final answer.', access: 'all' },
      ],
    };
    write('completion.txt', `Plan.\n${renderWorkflow(workflow)}`);
    expect(await run('--conductor', 'fixed:completion.txt', '--access', 'positional', '--episode-out', 'eps.jsonl')).toBe(0);
    const [episode] = episodesIn('eps.jsonl');
    expect(validateEpisode(episode).ok).toBe(true);
    expect(episode.workflow).toEqual(workflow);
    const outputs = episode.steps.map((s) => s.output);
    const expected = [[], [], [outputs[1]], [outputs[0], outputs[2]], outputs.slice(0, 4)];
    expect(episode.steps.map((s) => responsesShown(s.messages[0].content))).toEqual(expected);
    expect(episode.steps[3].messages[0].content).toContain('<Subtask assigned to Agent 2>\nCheck the second attempt.');
    expect(out).toContain(renderWorkflow(workflow));
    expect(out).toContain(`final answer:\n${episode.final}`);
    expect(out).toMatch(/step 4 {2}model 1 \(b\) {2}\d+\.\d\d s {2}\d+ in \/ \d+ out tokens {2}\$\d/);
  });

  it('says in plain words, counting from 0, which steps failed and which were not started because of them', async () => {
    const slow = { ...workers[1], simulated: { skill: { default: 0.7 }, latencyMs: 2_000 } };
    write('pool.json', JSON.stringify({ workers: [workers[0], slow] }));
    const workflow: Workflow = {
      steps: [
        { worker: 0, subtask: 'Solve it.', access: [] },
        { worker: 1, subtask: 'Solve it too.', access: [] },
        { worker: 0, subtask: 'Compare.', access: 'all' },
      ],
    };
    write('plan.txt', renderWorkflow(workflow));
    expect(await run('--conductor', 'fixed:plan.txt', '--timeout', '50', '--no-save')).toBe(1);
    const stepLines = out.split('\n').filter((l) => /^step \d/.test(l));
    expect(stepLines[0]).toMatch(/^step 0 {2}model 0 \(a\) {2}\d+\.\d\d s {2}\d+ in \/ \d+ out tokens {2}\$\d/);
    expect(stepLines[1]).toMatch(/^step 1 {2}model 1 \(b\) {2}\d+\.\d\d s {2}failed: Simulated worker "b" took longer than 50 ms: raise the step timeout\.$/);
    expect(stepLines[2]).toBe('step 2  model 0 (a)  0.00 s  not started: step 1 failed');
    expect(err).toBe('baton run: step 1 (b) failed: Simulated worker "b" took longer than 50 ms: raise the step timeout.\n');
  });

  it('says that simulated dollars were not spent, and why dollars are unknown', async () => {
    write(
      'one.txt',
      renderWorkflow({
        steps: [
          { worker: 0, subtask: 'Answer.', access: [] },
          { worker: 1, subtask: 'Check.', access: 'all' },
        ],
      }),
    );
    expect(await run('--conductor', 'fixed:one.txt', '--no-save')).toBe(0);
    expect(out).toMatch(/\$0\.\d+\nSimulated prices: the workers here are simulated, so no money was spent\.\n$/);
    out = '';
    write('pool.json', JSON.stringify({ workers: [workers[0], { ...workers[1], price: undefined, label: 'Laptop model' }] }));
    expect(await run('--conductor', 'fixed:one.txt', '--no-save')).toBe(0);
    expect(out).toMatch(
      /\$\?\n\$\? means unknown: worker "Laptop model" \(b\) has no price\.\nSimulated prices: the workers here are simulated, so no money was spent\.\n$/,
    );
  });

  it('explains why a wrong answer still earns a reward of 0.5', async () => {
    write('pool.json', JSON.stringify({ workers: [{ ...workers[0], simulated: { skill: { default: 0 } } }] }));
    write('one.txt', renderWorkflow({ steps: [{ worker: 0, subtask: 'Answer.', access: [] }] }));
    expect(await run('--conductor', 'fixed:one.txt', '--no-save')).toBe(0);
    expect(out).toContain('status ok  reward 0.5 (wrong)  total ');
    expect(out).toContain(
      "\nReward 0.5 although the answer is wrong: the Conductor's plan was well-formed, and that earns part of the reward (format credit).\n",
    );
  });

  it('appends one line per run and prints the whole episode with --json', async () => {
    write('one.txt', renderWorkflow({ steps: [{ worker: 2, subtask: 'Answer.', access: [] }] }));
    await run('--conductor', 'fixed:one.txt', '--episode-out', 'eps.jsonl', '--seed', '3');
    expect(await run('--conductor', 'fixed:one.txt', '--episode-out', 'eps.jsonl', '--json', '--seed', '3')).toBe(0);
    const lines = episodesIn('eps.jsonl');
    expect(lines).toHaveLength(2);
    expect(lines[0].steps[0].output).toBe(lines[1].steps[0].output); // same seed, same simulated answer
    expect(lines[1].pool[2].simulated?.seed).toBe(3);
    expect(JSON.parse(out.slice(out.indexOf('{')))).toEqual(lines[1]);
  });

  it('writes the episode of an unparsable completion, then fails with one line', async () => {
    write('bad.txt', 'I would ask model 0 to solve it.');
    expect(await run('--conductor', 'fixed:bad.txt', '--episode-out', 'eps.jsonl')).toBe(1);
    const [episode] = episodesIn('eps.jsonl');
    expect(episode.status).toBe('format-error');
    const missingLists = 'missing the model_id, subtasks and access_list lists; end the answer with model_id = [...], subtasks = [...] and access_list = [...]';
    expect(episode.parseError).toBe(missingLists);
    expect(err).toBe(`baton run: the Conductor's completion did not parse: ${missingLists}\n`);
  });

  it('names the entry and field of a bad pool file', async () => {
    write('pool.json', JSON.stringify({ workers: [workers[0], { ...workers[1], price: { input: 'cheap', output: 1 } }] }));
    write('one.txt', renderWorkflow({ steps: [{ worker: 0, subtask: 'Answer.', access: [] }] }));
    expect(await run('--conductor', 'fixed:one.txt')).toBe(1);
    expect(err).toBe('baton run: pool.json: workers[1].price.input must be a number >= 0, got "cheap".\n');
  });

  it('refuses keys in a pool file and duplicate ids', async () => {
    write('one.txt', renderWorkflow({ steps: [{ worker: 0, subtask: 'Answer.', access: [] }] }));
    write('pool.json', JSON.stringify([{ ...workers[0], apiKey: 'sk-123' }]));
    expect(await run('--conductor', 'fixed:one.txt')).toBe(1);
    expect(err).toContain('[0].apiKey looks like a key');
    err = '';
    write('pool.json', JSON.stringify([workers[0], workers[0]]));
    expect(await run('--conductor', 'fixed:one.txt')).toBe(1);
    expect(err).toContain('[1].id "a" is used by an earlier worker');
  });

  it('refuses a blank question before anything runs', async () => {
    write('one.txt', renderWorkflow({ steps: [{ worker: 0, subtask: 'Answer.', access: [] }] }));
    for (const task of ['', ' \n\t ']) {
      err = '';
      expect(await main(['run', '--task', task, '--pool', 'pool.json', '--conductor', 'fixed:one.txt'], io)).toBe(2);
      expect(err).toBe('baton run: --task is empty (see baton run --help)\n');
    }
    expect(out).toBe('');
    expect(readdirSync(dir)).toEqual(['one.txt', 'pool.json']);
  });

  it('rejects an unknown worker as Conductor, listing the pool', async () => {
    expect(await run('--conductor', 'worker:zeta')).toBe(2);
    expect(err).toBe('baton run: --conductor worker:zeta: no worker "zeta" in the pool (ids: a, b, c).\n');
  });

  it('lets a pool worker play the Conductor', async () => {
    // A simulated worker writes no lists, so this is a format error; what matters is that it was asked.
    expect(await run('--conductor', 'worker:a', '--episode-out', 'eps.jsonl')).toBe(1);
    const [episode] = episodesIn('eps.jsonl');
    expect(episode.conductor).toMatchObject({ runtime: 'worker', model: 'a' });
    expect(episode.completion.text).toContain('simulated');
  });

  it('runs replay workers from a RouteLLM file given with --replay', async () => {
    write(
      'replay.csv',
      'prompt,mistralai/Mixtral-8x7B-Instruct-v0.1,gpt-4-1106-preview,mistralai/Mixtral-8x7B-Instruct-v0.1_response,gpt-4-1106-preview_response\n"What is 17 + 25?",False,True,"It is 41.\n#### 41","17 + 25 = 42."\n',
    );
    write(
      'pool.json',
      JSON.stringify([
        { id: 'gpt4', provider: 'replay', model: 'gpt-4-1106-preview' },
        { id: 'mix', provider: 'replay', model: 'mixtral-8x7b-instruct-v0.1' },
      ]),
    );
    write(
      'one.txt',
      renderWorkflow({
        steps: [
          { worker: 1, subtask: 'Answer.', access: [] },
          { worker: 0, subtask: 'Answer.', access: [] },
        ],
      }),
    );
    expect(await run('--conductor', 'fixed:one.txt', '--replay', 'replay.csv', '--episode-out', 'eps.jsonl')).toBe(0);
    const [episode] = episodesIn('eps.jsonl');
    expect(episode.steps.map((s) => s.output)).toEqual(['It is 41.\n#### 41', '17 + 25 = 42.']);
    expect(episode.reward?.correct).toBe(true);
  });

  it('keeps every run in the episode directory, where `baton episodes` finds it', async () => {
    write('completion.txt', renderWorkflow({ steps: [{ worker: 2, subtask: 'Solve it.', access: [] }] }));
    expect(await run('--conductor', 'fixed:completion.txt', '--episode-out', 'eps.jsonl')).toBe(0);
    expect(await run('--conductor', 'fixed:completion.txt', '--episodes-dir', 'kept')).toBe(0);
    expect(await run('--conductor', 'fixed:completion.txt', '--episodes-dir', 'kept', '--no-save')).toBe(0);
    out = '';
    expect(await main(['episodes', 'stats', '--json'], io)).toBe(0);
    expect(JSON.parse(out).count).toBe(1);
    const [written] = episodesIn('eps.jsonl');
    out = '';
    expect(await main(['episodes', 'export', '--dir', 'kept'], io)).toBe(0);
    const exported = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Episode);
    expect(exported).toHaveLength(1);
    expect(exported[0].id).not.toBe(written.id);
    expect(exported[0].steps.map((s) => s.workerId)).toEqual(['c']);
  });
});
