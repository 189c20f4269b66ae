import { describe, expect, it } from 'vitest';
import { formatMcqQuestion, loadAime, loadGsm8k, loadHumanEval, loadMath500, loadMmluCsv } from '../../../../../src/core/bench/datasets/index.ts';
import { listData, readData, readGzippedData } from '../../../../support/data.ts';

describe('dataset loaders (tiny inline fixtures)', () => {
  it('GSM8K: the gold is the number after ####, without thousands commas', () => {
    const text = '{"question": "How many?", "answer": "2 + 3 = <<2+3=5>>5\\n#### 1,250"}\n\n';
    expect(loadGsm8k(text)).toEqual([{ question: 'How many?', answer: '1250', kind: 'gsm8k', dataset: 'gsm8k', itemId: '0' }]);
  });

  it('GSM8K: an item without #### is an error naming it', () => {
    expect(() => loadGsm8k('{"question": "Q", "answer": "5"}')).toThrow(/gsm8k, item 1/);
  });

  it('MATH500: LaTeX answers and unique ids as they are', () => {
    const text = JSON.stringify({ problem: 'Find x.', answer: '\\frac{1}{2}', unique_id: 'test/algebra/1.json' });
    expect(loadMath500(text)).toEqual([{ question: 'Find x.', answer: '\\frac{1}{2}', kind: 'math', dataset: 'math500', itemId: 'test/algebra/1.json' }]);
  });

  it('AIME: zero-padded answers become plain integers', () => {
    expect(loadAime('{"id": 60, "problem": "P", "answer": "033"}')[0]).toMatchObject({ answer: '33', kind: 'number', itemId: '60' });
  });

  it('HumanEval: the prompt as the question, prompt, tests and entry point as the code gold', () => {
    const text = JSON.stringify({
      task_id: 'HumanEval/7',
      prompt: 'def f():\n',
      entry_point: 'f',
      test: 'def check(c): pass',
      canonical_solution: '    return 1\n',
    });
    expect(loadHumanEval(text)).toEqual([
      {
        question: 'def f():\n',
        answer: JSON.stringify({ prompt: 'def f():\n', test: 'def check(c): pass', entry_point: 'f' }),
        kind: 'code',
        dataset: 'humaneval',
        itemId: 'HumanEval/7',
      },
    ]);
    expect(() => loadHumanEval('{"task_id": "HumanEval/1", "prompt": "p", "test": "t"}')).toThrow(/entry_point/);
  });

  it('MMLU: options lettered in the question, the answer index as a letter, the option texts kept', () => {
    const [task] = loadMmluCsv('question,choice0,choice1,choice2,choice3,answer\n"Pick, one",w,x,y,z,2\n', 'anatomy');
    expect(task).toEqual({
      question: 'Pick, one\nA. w\nB. x\nC. y\nD. z',
      answer: 'C',
      kind: 'mcq',
      dataset: 'mmlu',
      itemId: 'anatomy/0',
      choices: ['w', 'x', 'y', 'z'],
    });
    expect(() => loadMmluCsv('question,choice0,choice1,choice2,choice3,answer\nq,a,b,c,d,7\n')).toThrow(/answer must be 0-3/);
  });
});

describe('dataset loaders on the real files', () => {
  it('reads every item of GSM8K test, MATH500 and one MMLU subject', () => {
    const gsm8k = loadGsm8k(readData('gsm8k/test.jsonl'));
    expect(gsm8k).toHaveLength(1319);
    expect(gsm8k[0].answer).toBe('18');
    const math = loadMath500(readData('math500/test.jsonl'));
    expect(math).toHaveLength(500);
    expect(math[0].answer).toBe('\\left( 3, \\frac{\\pi}{2} \\right)');
    const anatomy = loadMmluCsv(readData('mmlu/test/anatomy_test.csv'), 'anatomy');
    expect(anatomy).toHaveLength(135);
    expect(anatomy[0].question).toBe(
      formatMcqQuestion('A lesion causing compression of the facial nerve at the stylomastoid foramen will cause ipsilateral', anatomy[0].choices!),
    );
  });

  it('reads every MMLU subject and AIME 2024, whose zero-padded answers come out as plain integers', () => {
    const subjects = listData('mmlu/test');
    expect(subjects).toHaveLength(57);
    const mmlu = subjects.flatMap((file) => loadMmluCsv(readData(`mmlu/test/${file}`), file.replace(/_test\.csv$/, '')));
    expect(mmlu).toHaveLength(14042);
    expect(mmlu[0].itemId).toBe('abstract_algebra/0');
    const aime = loadAime(readData('aime2024/test.jsonl'));
    expect(aime).toHaveLength(30);
    expect(aime[0]).toMatchObject({ itemId: '60', answer: '204' });
    expect(aime.filter((t) => !/^[1-9]\d*$/.test(t.answer ?? '')).map((t) => t.itemId)).toEqual([]);
  });

  it('reads every HumanEval task (graded by running them: test/unit/node/sandbox/node-code-runner.test.ts)', () => {
    const humaneval = loadHumanEval(readGzippedData('humaneval/HumanEval.jsonl.gz'));
    expect(humaneval).toHaveLength(164);
    expect(humaneval[163]).toMatchObject({ itemId: 'HumanEval/163', kind: 'code' });
    expect(JSON.parse(humaneval[0].answer!)).toMatchObject({ entry_point: 'has_close_elements' });
  });
});
