import { describe, expect, it } from 'vitest';
import { parseWorkflow } from '../../../../src/core/workflow/index.ts';
import type { ParseOptions, Step } from '../../../../src/core/workflow/index.ts';

const POOL: ParseOptions = { workers: 3 };

function steps(text: string, opts: ParseOptions = POOL): Step[] {
  const r = parseWorkflow(text, opts);
  if (!r.ok) throw new Error(`expected a workflow, got error: ${r.error}`);
  return r.workflow.steps;
}

function error(text: string, opts: ParseOptions = POOL): string {
  const r = parseWorkflow(text, opts);
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.error;
}

const TWO_STEPS: Step[] = [
  { worker: 2, subtask: 'Solve it', access: [] },
  { worker: 0, subtask: 'Check it', access: 'all' },
];

describe('parseWorkflow: well-formed output', () => {
  it('reads the three lists after free-text reasoning', () => {
    const text = `The question needs a solver and a checker.\n\nmodel_id = [2, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], ["all"]]`;
    expect(parseWorkflow(text, POOL)).toEqual({ ok: true, workflow: { steps: TWO_STEPS } });
  });

  it('reads positional access lists', () => {
    const text = `model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [], [0, 1]]`;
    expect(steps(text, { workers: 3, access: 'positional' }).map((s) => s.access)).toEqual([[], [], [0, 1]]);
  });

  it('has no upper bound on model ids when the pool size is not given', () => {
    expect(steps('model_id = [41]\nsubtasks = ["x"]\naccess_list = [[]]', {})[0].worker).toBe(41);
  });
});

describe('parseWorkflow: sloppy but readable output', () => {
  const cases: Array<[string, string]> = [
    ['JSON object', `{"model_id": [2, 0], "subtasks": ["Solve it", "Check it"], "access_list": [[], "all"]}`],
    ['JSON keys on their own lines', `{\n  "model_id":\n    [2, 0],\n  "subtasks": ["Solve it",\n "Check it"],\n  "access_list": [[], ["all"]]\n}`],
    ['bold labels with colons', `**model_id**: [2, 0]\n**subtasks:** ["Solve it", "Check it"]\n**access_list** = [[], ["all"]]`],
    ['bullets and bold around the whole line', `- **model_id = [2, 0]**\n- **subtasks = ["Solve it", "Check it"]**\n* access_list = [[], "all"]`],
    ['python code fence', "Plan:\n```python\nmodel_id = [2, 0]\nsubtasks = ['Solve it', 'Check it']\naccess_list = [[], ['all']]\n```"],
    [
      'list on the line after a fence under the label',
      "model_id:\n```\n[2, 0]\n```\nsubtasks:\n```python\n['Solve it', 'Check it']\n```\naccess_list:\n```\n[[], 'all']\n```",
    ],
    ['inline backticks', '`model_id = [2, 0]`\n`subtasks = ["Solve it", "Check it"]`\n`access_list = [[], "all"]`'],
    ['label spellings and case', `Model IDs: [2, 0]\nSubtask: ["Solve it", "Check it"]\nAccess: [[], "ALL"]`],
    ['model id with a space and access lists', `model id = [2, 0]\nsub tasks = ["Solve it", "Check it"]\naccess lists = [[], "all"]`],
    ['camelCase labels', `modelIds = [2, 0]\nsubTasks = ["Solve it", "Check it"]\naccessList = [[], "all"]`],
    ['python type annotations', `model_id: list[int] = [2, 0]\nsubtasks: list[str] = ["Solve it", "Check it"]\naccess_list: list = [[], "all"]`],
    ['smart quotes', `model_id = [2, 0]\nsubtasks = [“Solve it”, ‘Check it’]\naccess_list = [[], [“all”]]`],
    [
      'multi-line lists with trailing commas and comments',
      `model_id = [\n  2,  # strong solver\n  0,\n]\nsubtasks = [\n  "Solve it",\n  "Check it",\n]\naccess_list = [\n  [],\n  "all",\n]`,
    ],
    ['integer-valued strings as model ids', `model_id = ["2", "Model id 0"]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], "all"]`],
    ['tuples and None for no access', `model_id = (2, 0)\nsubtasks = ("Solve it", "Check it")\naccess_list = [None, "all"]`],
    [
      'think block with draft lists',
      `<think>model_id = [1]\nsubtasks = ["draft"]\naccess_list = [[]]</think>\nmodel_id = [2, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], "all"]`,
    ],
    [
      'closing think tag only (opening tag was in the prompt)',
      `I could use model_id = [1] alone... no.</think>\n\nmodel_id = [2, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], "all"]`,
    ],
    ['bare words split on commas', `model_id = [2, 0]\nsubtasks = [Solve it, Check it]\naccess_list = [[], all]`],
    [
      'labels as headings with the list below',
      "### Model IDs\n[2, 0]\n\n### Subtasks\n```python\n['Solve it', 'Check it']\n```\n\n### Access list\n[[], 'all']",
    ],
    ['XML-style tags', '<model_id>[2, 0]</model_id>\n<subtasks>["Solve it", "Check it"]</subtasks>\n<access_list>[[], "all"]</access_list>'],
    ['JSON null (read by the JSON fallback)', `model_id = [2, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [null, "all"]`],
    ['r and u string prefixes', `model_id = [2, 0]\nsubtasks = [r"Solve it", u'Check it']\naccess_list = [[], "all"]`],
    ['quoted lists and one-element subtask lists', `model_id = [2, 0]\nsubtasks = [["Solve it"], ["Check it"]]\naccess_list = ["[]", '["all"]']`],
    ['full-width colon', `model_id\uff1a[2, 0]\nsubtasks\uff1a["Solve it", "Check it"]\naccess_list\uff1a[[], "all"]`],
    ['CRLF line ends', 'model_id = [2, 0]\r\nsubtasks = [\r\n  "Solve it",\r\n  "Check it"\r\n]\r\naccess_list = [[], "all"]\r\n'],
    [
      'markdown-escaped underscores',
      String.raw`**model\_id**: [2, 0]` + '\n' + String.raw`**subtasks**: ["Solve it", "Check it"]` + '\n' + String.raw`**access\_list**: [[], "all"]`,
    ],
    ['italic labels and prefixed variable names', `_model_id_: [2, 0]\nfinal_subtasks = ["Solve it", "Check it"]\n*access_list*: [[], "all"]`],
    ['lists in one line separated by semicolons', `model_id=[2,0]; subtasks=["Solve it","Check it"]; access_list=[[],"all"]`],
  ];
  it.each(cases)('%s', (_name, text) => {
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('prefers the last lists when labels are repeated while reasoning', () => {
    const text = [
      'First idea: model_id = [1], subtasks = ["Do everything"], access_list = [[]].',
      'But a checker helps, so the model_id list should have two entries.',
      'Final answer:',
      'model_id = [2, 0]',
      'subtasks = ["Solve it", "Check it"]',
      'access_list = [[], "all"]',
    ].join('\n');
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('keeps the final lists when an explanation after them mentions a label with a list', () => {
    const text = [
      'model_id = [2, 0]',
      'subtasks = ["Solve it", "Check it"]',
      'access_list = [[], "all"]',
      '',
      'Why: step 2 has access: ["all"], so it sees the solution; an access: [] step sees only the question.',
    ].join('\n');
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('ignores format placeholders like [...] before and after the lists', () => {
    const text = [
      'I must answer with model_id = [...], subtasks = [...] and access_list = [...].',
      'model_id = [2, 0]',
      'subtasks = ["Solve it", "Check it"]',
      'access_list = [[], "all"]',
      'That follows the model_id = [0, 1, ...] pattern.',
    ].join('\n');
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('takes a complete redraft after the first lists', () => {
    const text =
      'model_id = [1]\nsubtasks = ["Do all"]\naccess_list = [[]]\nOn reflection, a checker helps:\nmodel_id = [2, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], "all"]';
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('finds lists written before model_id when none follow it', () => {
    const text =
      '{"subtasks": ["draft"], "access_list": [[]], "model_id": [1]}\nFinal: {"subtasks": ["Solve it", "Check it"], "access_list": [[], "all"], "model_id": [2, 0]}';
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('skips a later mention of a label that is not followed by a readable list', () => {
    const text = `model_id = [2, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], "all"]\nThis follows the access_list = [...] format, and the subtasks: [ see above ] are short.`;
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('ignores labels quoted inside the text of an earlier list', () => {
    const text = `model_id = [2, 0]\nsubtasks = ["Solve it. Ignore any model_id = [9] here", "Check it"]\naccess_list = [[], "all"]`;
    expect(steps(text)[0]).toEqual({ worker: 2, subtask: 'Solve it. Ignore any model_id = [9] here', access: [] });
  });

  it('keeps quotes, escapes, brackets and unicode inside subtasks', () => {
    const text = String.raw`model_id = [0, 1]
subtasks = ['Print "done" when it\'s over [1, 2]', "Line one\nLine two: \u00e9 \\ end ✓"]
access_list = [[], "all"]`;
    expect(steps(text).map((s) => s.subtask)).toEqual([`Print "done" when it's over [1, 2]`, 'Line one\nLine two: é \\ end ✓']);
  });

  it('reads a raw string without decoding its escapes', () => {
    const text = String.raw`model_id = [0]` + '\n' + String.raw`subtasks = [r"Match \d+\n lines"]` + '\naccess_list = [[]]';
    expect(steps(text)[0].subtask).toBe(String.raw`Match \d+\n lines`);
  });

  it('reads unquoted "Model id N" entries through the comma fallback', () => {
    const text = 'model_id = [Model id 2, Model 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], "all"]';
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('prefers a properly read list to a later one that only splits on commas', () => {
    const text = 'model_id = [2, 0]\nsubtasks = ["Solve it", "Check it"]\naccess_list = [[], "all"]\nThe subtasks: [see above, twice] are short.';
    expect(steps(text)).toEqual(TWO_STEPS);
  });

  it('keeps LaTeX in subtasks written with single backslashes', () => {
    const text = String.raw`model_id = [0]
subtasks = ["Compute \frac{3}{4} \times 8 and put the result in \boxed{}"]
access_list = [[]]`;
    expect(steps(text)[0].subtask).toBe(String.raw`Compute \frac{3}{4} \times 8 and put the result in \boxed{}`);
  });

  it('reads smart quotes inside subtasks as straight ones', () => {
    const text = 'model_id = [0]\nsubtasks = [“Explain why it’s ‘odd’”]\naccess_list = [[]]';
    expect(steps(text)[0].subtask).toBe(`Explain why it's 'odd'`);
  });

  it('reads an apostrophe inside a single-quoted subtask', () => {
    const text = `model_id = [0, 1]\nsubtasks = ['Find the student's mistake', 'Write the corrected answer']\naccess_list = [[], 'all']`;
    expect(steps(text).map((s) => s.subtask)).toEqual(["Find the student's mistake", 'Write the corrected answer']);
  });

  it('accepts the same index twice once', () => {
    const text = 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [0], [1, 0, 1]]';
    expect(steps(text)[2].access).toEqual([1, 0]);
  });

  it('reads three empty lists in a recursion round as "keep"', () => {
    const text = 'The answer above is right, so I keep it.\nmodel_id = []\nsubtasks = []\naccess_list = []';
    expect(parseWorkflow(text, { ...POOL, recursion: true })).toEqual({ ok: true, keep: true, workflow: { steps: [] } });
  });

  it('reads a new workflow in a recursion round', () => {
    const text = 'model_id = [1]\nsubtasks = ["Redo it"]\naccess_list = ["all"]';
    expect(parseWorkflow(text, { ...POOL, recursion: true })).toEqual({
      ok: true,
      workflow: { steps: [{ worker: 1, subtask: 'Redo it', access: 'all' }] },
    });
  });
});

describe('parseWorkflow: broken output', () => {
  it('names every missing list', () => {
    expect(error('I would ask model 2 to solve it.')).toBe(
      'missing the model_id, subtasks and access_list lists; end the answer with model_id = [...], subtasks = [...] and access_list = [...]',
    );
    expect(error('model_id = [0]\nsubtasks = ["x"]')).toMatch(/^missing the access_list list; /);
  });

  it('treats an unclosed think block as no answer', () => {
    expect(error('<think>model_id = [0]\nsubtasks = ["x"]\naccess_list = [[]]')).toMatch(/^missing the model_id, subtasks and access_list lists/);
  });

  it('reports unequal lengths', () => {
    const text = 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], "all"]';
    expect(error(text)).toBe('access_list has 2 entries but model_id has 3: the three lists must have equal length, one entry per step');
    expect(error('model_id = [0, 1]\nsubtasks = ["a"]\naccess_list = [[], []]')).toMatch(/^subtasks has 1 entry but model_id has 2/);
  });

  it('reports a model id out of range', () => {
    const text = 'model_id = [0, 3]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]';
    expect(error(text)).toBe('model_id[1] is 3, out of range: model ids are integers from 0 to 2 (the pool has 3 models)');
    expect(error('model_id = [-1]\nsubtasks = ["a"]\naccess_list = [[]]')).toMatch(/^model_id\[0\] is -1, out of range: /);
  });

  it('reports a model id that is not an integer', () => {
    expect(error('model_id = [1.5]\nsubtasks = ["a"]\naccess_list = [[]]')).toBe(
      'model_id[0] is 1.5, not an integer: model ids are integers from 0 to 2 (the pool has 3 models)',
    );
    expect(error('model_id = ["two"]\nsubtasks = ["a"]\naccess_list = [[]]')).toMatch(/^model_id\[0\] is "two", not an integer/);
    expect(error('model_id = [True]\nsubtasks = ["a"]\naccess_list = [[]]')).toMatch(/^model_id\[0\] is true, not an integer/);
  });

  it('reports a forward or self reference', () => {
    const text = 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[1], []]';
    expect(error(text)).toBe('access_list[0] refers to step 1, a forward reference: the first step can only have [] or "all"');
    expect(error('model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], [1]]')).toBe(
      'access_list[1] refers to step 1, a self reference: step 1 may only see steps 0 to 0',
    );
  });

  it('reports too many steps', () => {
    const text = 'model_id = [0, 1, 2, 0, 1, 2]\nsubtasks = ["a", "b", "c", "d", "e", "f"]\naccess_list = [[], [], [], [], [], []]';
    expect(error(text)).toBe('too many steps: 6, but at most 5 are allowed; merge or drop steps');
    expect(error('model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], []]', { workers: 3, maxSteps: 1 })).toBe(
      'too many steps: 2, but at most 1 is allowed; merge or drop steps',
    );
  });

  it('reports empty lists outside a recursion round', () => {
    expect(error('model_id = []\nsubtasks = []\naccess_list = []')).toMatch(/^the lists are empty: write at least one step/);
  });

  it('reports an unbalanced list', () => {
    const text = 'model_id = [0, 1]\nsubtasks = ["a", "b"\naccess_list = [[], "all"]';
    expect(error(text)).toBe('could not read the subtasks list: its "[" (line 2, column 12) is never closed (unbalanced brackets or an unclosed quote)');
  });

  it('reports a final list cut off mid-way rather than pairing it with a draft from the reasoning', () => {
    const draft = 'Draft:\nmodel_id = [0, 1]\nsubtasks = ["Solve.", "Check."]\naccess_list = [[], "all"]\nBetter:\n';
    expect(error(`${draft}model_id = [1, 2]\nsubtasks = ["Solve it.", "Check and fix`)).toMatch(
      /^could not read the subtasks list: its "\[" \(line 7, column 12\) is never closed/,
    );
    expect(error(`${draft}model_id = [1, 2]\nsubtasks = ["Solve it.", "Check it."]\naccess_list = [[], ["al`)).toMatch(
      /^could not read the access_list list: its "\[" \(line 8, column 15\)/,
    );
    expect(error(`${draft}model_id = [1, 2, `)).toMatch(/^could not read the model_id list: its "\[" \(line 6, column 12\)/);
  });

  it('reports a list it cannot read before the lists missing after it', () => {
    expect(error('model_id = [0, 1]\nsubtasks = ["Solve the problem and')).toMatch(/^could not read the subtasks list: /);
  });

  it('refuses deeply nested JSON as it refuses deep Python literals', () => {
    const deep = `${'['.repeat(5000)}0${']'.repeat(5000)}`;
    expect(error(`model_id = [0]\nsubtasks = ["a"]\naccess_list = ${deep}`)).toMatch(
      /^could not read the access_list list: lists are nested more than 32 deep/,
    );
  });

  it('reports an unreadable list with where it went wrong', () => {
    const text = 'model_id = [0, 1]\nsubtasks = ["a" "b" + c]\naccess_list = [[], "all"]';
    expect(error(text)).toBe('could not read the subtasks list: expected "," or "]" but found "+" (line 2, column 21)');
  });

  it('rejects index lists in binary mode', () => {
    const text = 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [], [0, 1]]';
    expect(error(text, { workers: 3, access: 'binary' })).toBe(
      'access_list[2] is [0,1], but binary access mode allows only "all" (every earlier step) or [] (only the question)',
    );
  });

  it('rejects empty subtasks and non-string subtasks', () => {
    expect(error('model_id = [0]\nsubtasks = ["  "]\naccess_list = [[]]')).toBe('subtasks[0] is empty: say what the model should do in this step');
    expect(error('model_id = [0]\nsubtasks = [[1]]\naccess_list = [[]]')).toBe('subtasks[0] is [1], but each subtask must be a string of instructions');
  });

  it('rejects access entries that are neither "all", [] nor indices', () => {
    expect(error('model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], ["previous"]]')).toBe(
      'access_list[1] contains "previous", but an access entry is "all", [] or a list of earlier step indices',
    );
  });

  it('never throws, whatever the input', () => {
    const junk = ['', '[[[[', 'model_id = [', 'model_id = ["\\', '"""', 'access_list = [[[]]]', '\u0000\uffff'];
    for (const text of junk) expect(parseWorkflow(text, POOL).ok).toBe(false);
  });
});
