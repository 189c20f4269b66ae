// The training bundle's files: the settings pointed at the bundle's own files, keys never in the pool,
// the variables the pool reads named in the README beside the one command, tasks as baton train reads them.
import { describe, expect, it } from 'vitest';
import type { WorkerSpec } from '../../../../src/core/providers/index.ts';
import {
  normalizeQuestion,
  parseRecordedModels,
  parseRecordedSet,
  parseRouteLlmCsv,
  type RecordedSourceData,
} from '../../../../src/core/providers/replay/index.ts';
import { trainBundleFiles, type TrainBundleInput } from '../../../../src/core/rl/index.ts';

const POOL: WorkerSpec[] = [
  { id: 'gpt', provider: 'openai', model: 'gpt-5-mini', key: 'sk-secret' } as WorkerSpec,
  { id: 'claude', provider: 'anthropic', model: 'claude-haiku', keyEnv: 'MY_ANTHROPIC' },
  { id: 'local', provider: 'openai-compatible', model: 'qwen', baseUrl: 'http://localhost:11434/v1' },
];
const INPUT: TrainBundleInput = {
  script: new TextEncoder().encode('// cli'),
  webgpuVersion: '9.9.9',
  settings: { model: '/home/me/model', pool: 'mine.json', tasks: 'mine.jsonl', 'held-out': 'x.jsonl', out: 'runs/a', steps: 3, constrain: true },
  tasks: [{ question: 'Sky?', answer: 'B', kind: 'mcq', choices: ['red', 'blue'], dataset: 'mine', itemId: '4' }],
  heldOut: [],
  pool: POOL,
  model: { source: 'the Hugging Face repo Qwen/Qwen2.5-0.5B-Instruct' },
};
const text = (files: Record<string, Uint8Array>, name: string) => new TextDecoder().decode(files[name]);

describe('trainBundleFiles', () => {
  it('writes the script, the settings with the bundle paths, the tasks, the pool without keys and the README', () => {
    const files = trainBundleFiles(INPUT);
    expect(Object.keys(files).sort()).toEqual(['README.md', 'baton.mjs', 'config.json', 'pool.json', 'tasks.jsonl']);
    expect(JSON.parse(text(files, 'config.json'))).toEqual({ model: 'model', pool: 'pool.json', tasks: 'tasks.jsonl', steps: 3, constrain: true });
    expect(text(files, 'tasks.jsonl')).toBe('{"question":"Sky?","answer":"B","kind":"mcq","choices":["red","blue"],"dataset":"mine","itemId":"4"}\n');
    expect(text(files, 'pool.json')).not.toContain('sk-secret');
    expect(JSON.parse(text(files, 'pool.json')).workers[0]).toEqual({ id: 'gpt', provider: 'openai', model: 'gpt-5-mini' });
    const readme = text(files, 'README.md');
    expect(readme).toContain('npm i webgpu@9.9.9 && node baton.mjs train --config config.json --out run');
    expect(readme).toContain('`OPENAI_API_KEY`, `MY_ANTHROPIC`.');
    expect(readme).toContain('Qwen/Qwen2.5-0.5B-Instruct');
  });

  it('ships a small model under model/ and a held-out set when there is one', () => {
    const files = trainBundleFiles({
      ...INPUT,
      pool: [POOL[2]],
      heldOut: INPUT.tasks,
      model: { files: { 'config.json': Uint8Array.of(1), 'model.safetensors': Uint8Array.of(2) } },
    });
    expect(JSON.parse(text(files, 'config.json'))['held-out']).toBe('held-out.jsonl');
    expect(text(files, 'held-out.jsonl')).toBe(text(files, 'tasks.jsonl'));
    expect([...files['model/model.safetensors']]).toEqual([2]);
    expect(text(files, 'README.md')).toContain('The model is in `model/`. The pool needs no keys.');
  });

  it('carries the records its replay workers read for its tasks, and refuses a replay pool without them', () => {
    const replay = parseRouteLlmCsv('prompt,gpt-4,mixtral,other\n"Sky?",True,False,True\n"Sea?",False,False,False\n');
    const pool: WorkerSpec[] = [
      { id: 'a', provider: 'replay', model: 'gpt-4' },
      { id: 'b', provider: 'replay', model: 'mixtral' },
    ];
    const files = trainBundleFiles({ ...INPUT, settings: { ...INPUT.settings, replay: '/home/me/records.csv' }, pool, replay });
    expect(JSON.parse(text(files, 'config.json')).replay).toBe('replay.csv');
    const carried = parseRouteLlmCsv(text(files, 'replay.csv'));
    expect(carried.models).toEqual(['gpt-4', 'mixtral']);
    expect([...carried.entries]).toEqual([[normalizeQuestion('Sky?'), { 'gpt-4': { correct: true }, mixtral: { correct: false } }]]);
    expect(text(files, 'README.md')).toContain('`replay.csv`');
    expect(() => trainBundleFiles({ ...INPUT, pool })).toThrow(/replay workers but no recorded answers/);
    expect(Object.keys(trainBundleFiles(INPUT))).not.toContain('replay.csv');
  });

  it("keeps a recorded pool's records of its questions by its models in data/<source>/, as data/ holds them, and refuses a recorded pool without them", () => {
    const record = (usd: number) => ({ text: 'B', correct: true, inputTokens: 40, outputTokens: 2, usd });
    const question = (id: string, q: string) => ({ id, kind: 'mcq' as const, question: q, answer: 'B', records: { big: record(0.01), small: record(0.001) } });
    const data: RecordedSourceData = {
      models: [
        { id: 'big', model: 'big', label: 'Big', price: null, priceSource: 'recorded', tokens: '' },
        { id: 'small', model: 'small', label: 'Small', price: null, priceSource: 'recorded', tokens: '' },
      ],
      sets: [
        { set: 'arc', questions: [question('1', 'Sky?'), question('2', 'Sea?')] },
        { set: 'mbpp', questions: [question('3', 'Code?')] },
      ],
    };
    const pool: WorkerSpec[] = [{ id: 'big', provider: 'replay', model: 'routerbench/big' }];
    const files = trainBundleFiles({ ...INPUT, pool, recorded: { routerbench: data } });
    expect(Object.keys(files).filter((f) => f.startsWith('data/'))).toEqual(['data/routerbench/models.json', 'data/routerbench/arc.jsonl']);
    expect(parseRecordedModels(text(files, 'data/routerbench/models.json'), 'models').map((m) => m.id)).toEqual(['big']);
    expect(parseRecordedSet(text(files, 'data/routerbench/arc.jsonl'), 'arc')).toEqual([{ ...question('1', 'Sky?'), records: { big: record(0.01) } }]);
    expect(JSON.parse(text(files, 'config.json'))).not.toHaveProperty('replay');
    expect(text(files, 'README.md')).toContain('`data/`');
    expect(() => trainBundleFiles({ ...INPUT, pool })).toThrow(/replays routerbench's recorded answers, but they were not given/);
  });
});
