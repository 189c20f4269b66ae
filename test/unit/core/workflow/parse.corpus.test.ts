/**
 * An independent corpus of Conductor outputs as a 3B-7B model writes them after free-text reasoning
 * (fences, JSON, labels in many spellings, drafts then final lists, LaTeX and code in subtasks, smart
 * quotes, think blocks) and broken ones that must be rejected with a reason. Each expectation was
 * decided from the method's parsing rules (docs/method.md, "Reading the Conductor's output"), not from the parser's output.
 */
import { describe, expect, it } from 'vitest';
import { parseWorkflow, type Access, type ParseResult } from '../../../../src/core/workflow/index.ts';

interface Case {
  name: string;
  text: string;
  workers?: number;
  maxSteps?: number;
  access?: 'binary' | 'positional';
  recursion?: boolean;
  /** A workflow: its model ids, access entries and subtasks. */
  ok?: { w: number[]; a: Access[]; s: string[] };
  /** A recursion round's "keep the previous answer". */
  keep?: boolean;
  /** A rejection whose message matches. */
  err?: RegExp;
}

const T = String.raw;
const canon = T`model_id = [2, 0, 1]
subtasks = ["Solve the problem.", "Check the solution above.", "Write the final answer."]
access_list = [[], ["all"], ["all"]]`;
const CANON_SUBTASKS = ['Solve the problem.', 'Check the solution above.', 'Write the final answer.'];

const CASES: Case[] = [
  { name: 'canonical', text: `Let us think. Model 2 is strong.\n\n${canon}`, workers: 3, ok: { w: [2, 0, 1], a: [[], 'all', 'all'], s: CANON_SUBTASKS } },
  {
    name: 'multiline trailing commas',
    workers: 3,
    text: T`I'll split this into two steps.

model_id = [
    1,
    2,
]
subtasks = [
    "Compute the integral of x^2 from 0 to 3.",
    "Verify the computation and state the result.",
]
access_list = [
    [],
    "all",
]`,
    ok: { w: [1, 2], a: [[], 'all'], s: ['Compute the integral of x^2 from 0 to 3.', 'Verify the computation and state the result.'] },
  },
  {
    name: 'python fence',
    workers: 3,
    text: "Here is the plan:\n\n```python\nmodel_id = [0,1,2]\nsubtasks = ['Write a function.', 'Write tests for it.', 'Fix any bug and give the final code.']\naccess_list = [[], ['all'], ['all']]\n```\n",
    ok: { w: [0, 1, 2], a: [[], 'all', 'all'], s: ['Write a function.', 'Write tests for it.', 'Fix any bug and give the final code.'] },
  },
  {
    name: 'json object',
    workers: 2,
    text: '```json\n{\n  "model_id": [0, 1],\n  "subtasks": ["Answer the question.", "Review the answer."],\n  "access_list": [[], "all"]\n}\n```',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Answer the question.', 'Review the answer.'] },
  },
  {
    name: 'labels casing spacing',
    workers: 3,
    text: 'Model IDs: [1, 2]\nSubtasks: ["Solve.", "Verify."]\nAccess List = [[], ["all"]]',
    ok: { w: [1, 2], a: [[], 'all'], s: ['Solve.', 'Verify.'] },
  },
  {
    name: 'draft then final',
    workers: 3,
    text: T`First idea: model_id = [0], subtasks = ["Solve it"], access_list = [[]]. But that's weak; a verifier helps.

Final:
model_id = [0, 2]
subtasks = ["Solve it", "Verify it"]
access_list = [[], "all"]`,
    ok: { w: [0, 2], a: [[], 'all'], s: ['Solve it', 'Verify it'] },
  },
  {
    name: 'brackets in subtask',
    workers: 2,
    text: T`model_id = [0, 1]
subtasks = ["Sort the list [3, 1, 2] and return it.", "Check that the output equals [1, 2, 3]."]
access_list = [[], ["all"]]`,
    ok: { w: [0, 1], a: [[], 'all'], s: ['Sort the list [3, 1, 2] and return it.', 'Check that the output equals [1, 2, 3].'] },
  },
  {
    name: 'apostrophe in single quotes',
    workers: 2,
    text: T`model_id = [0, 1]
subtasks = ['Solve the problem.', 'Check the student's answer and fix it.']
access_list = [[], ['all']]`,
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve the problem.', "Check the student's answer and fix it."] },
  },
  {
    name: 'escaped quotes',
    workers: 2,
    text: T`model_id = [1]
subtasks = ["Write a program that prints \"hello\" and exits."]
access_list = [[]]`,
    ok: { w: [1], a: [[]], s: ['Write a program that prints "hello" and exits.'] },
  },
  {
    name: 'latex backslashes',
    workers: 3,
    text: T`model_id = [0, 1]
subtasks = ["Compute \frac{1}{2} + \sqrt{3} \times \theta and simplify.", "Check whether x \neq 0 and \left( a \right) hold."]
access_list = [[], "all"]`,
    ok: { w: [0, 1], a: [[], 'all'], s: [T`Compute \frac{1}{2} + \sqrt{3} \times \theta and simplify.`, T`Check whether x \neq 0 and \left( a \right) hold.`] },
  },
  {
    name: 'double-escaped latex',
    workers: 3,
    text: T`model_id = [0]
subtasks = ["Evaluate \\frac{3}{4} \\cdot 8."]
access_list = [[]]`,
    ok: { w: [0], a: [[]], s: [T`Evaluate \frac{3}{4} \cdot 8.`] },
  },
  {
    name: 'raw newline in string',
    workers: 2,
    text: 'model_id = [0, 1]\nsubtasks = ["Solve the equation.\nShow every step.", "Verify."]\naccess_list = [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve the equation.\nShow every step.', 'Verify.'] },
  },
  {
    name: 'escaped newline',
    workers: 2,
    text: T`model_id = [0]
subtasks = ["Line one.\nNext line."]
access_list = [[]]`,
    ok: { w: [0], a: [[]], s: ['Line one.\nNext line.'] },
  },
  {
    name: 'code snippet brackets',
    workers: 3,
    text: T`model_id = [0, 1, 2]
subtasks = ["Implement dp where dp[i] = max(dp[i-1], dp[i-2] + a[i]).", "Write tests: assert f([1,2,3]) == 4.", "Review the code above, fix off-by-one errors in a[i]."]
access_list = [[], [0], [0, 1]]`,
    ok: {
      w: [0, 1, 2],
      a: [[], [0], [0, 1]],
      s: [
        'Implement dp where dp[i] = max(dp[i-1], dp[i-2] + a[i]).',
        'Write tests: assert f([1,2,3]) == 4.',
        'Review the code above, fix off-by-one errors in a[i].',
      ],
    },
  },
  {
    name: 'mixed access forms',
    workers: 3,
    text: T`model_id = [0, 1, 2]
subtasks = ["a", "b", "c"]
access_list = [[], ["all"], "all"]`,
    ok: { w: [0, 1, 2], a: [[], 'all', 'all'], s: ['a', 'b', 'c'] },
  },
  {
    name: 'positional',
    workers: 3,
    text: 'model_id = [2, 1, 0]\nsubtasks = ["x", "y", "z"]\naccess_list = [[],[0],[0,1]]',
    ok: { w: [2, 1, 0], a: [[], [0], [0, 1]], s: ['x', 'y', 'z'] },
  },
  {
    name: 'singleton all',
    workers: 1,
    text: "model_id = [0]\nsubtasks = ['Answer the question directly.']\naccess_list = [['all']]",
    ok: { w: [0], a: ['all'], s: ['Answer the question directly.'] },
  },
  {
    name: 'smart quotes',
    workers: 2,
    text: 'model_id = [1, 0]\nsubtasks = [\u201cSolve the riddle.\u201d, \u201cCheck it and answer.\u201d]\naccess_list = [[], [\u201call\u201d]]',
    ok: { w: [1, 0], a: [[], 'all'], s: ['Solve the riddle.', 'Check it and answer.'] },
  },
  {
    name: 'smart single quotes',
    workers: 2,
    text: 'model_id = [1]\nsubtasks = [\u2018Solve the riddle.\u2019]\naccess_list = [[]]',
    ok: { w: [1], a: [[]], s: ['Solve the riddle.'] },
  },
  {
    name: 'think block',
    workers: 3,
    text: `<think>\nMaybe model_id = [0, 0, 0]? subtasks = ["a","b","c"] access_list = [[],[],[]]\n</think>\n\nmodel_id = [1]\nsubtasks = ["Solve it."]\naccess_list = [[]]`,
    ok: { w: [1], a: [[]], s: ['Solve it.'] },
  },
  {
    name: 'orphan think close',
    workers: 3,
    text: `model_id = [0, 0]\n</think>\nmodel_id = [2]\nsubtasks = ["Solve it."]\naccess_list = ["all"]`,
    ok: { w: [2], a: ['all'], s: ['Solve it.'] },
  },
  {
    name: 'truncated subtasks',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["Solve the problem carefully and',
    err: /^could not read the subtasks list: .*never closed/,
  },
  {
    name: 'truncated access',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["Solve.", "Check."]\naccess_list = [[], ["al',
    err: /^could not read the access_list list: .*never closed/,
  },
  {
    name: 'truncated final after full draft',
    workers: 3,
    text: 'Draft:\nmodel_id = [0, 1]\nsubtasks = ["Solve.", "Check."]\naccess_list = [[], "all"]\nActually better:\nmodel_id = [1, 2]\nsubtasks = ["Solve it with care.", "Check and fix',
    err: /^could not read the subtasks list: .*line 7.*never closed/,
  },
  {
    name: 'unclosed think',
    workers: 3,
    text: '<think>\nI will use model 0.\nmodel_id = [0]\nsubtasks = ["Solve"]\naccess_list = [[]]\nHmm, maybe',
    err: /missing/,
  },
  { name: 'missing access', workers: 3, text: 'model_id = [0, 1]\nsubtasks = ["Solve.", "Check."]', err: /access_list/ },
  { name: 'missing all', workers: 3, text: 'I think model 0 should just solve it. The answer is 42.', err: /missing/ },
  { name: 'empty text', workers: 3, text: '', err: /missing/ },
  {
    name: 'unequal lengths',
    workers: 3,
    text: 'model_id = [0, 1, 2]\nsubtasks = ["a", "b"]\naccess_list = [[], "all", "all"]',
    err: /^subtasks has 2 entries but model_id has 3/,
  },
  { name: 'unequal access', workers: 3, text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[]]', err: /access_list/ },
  { name: 'id out of range', workers: 3, text: 'model_id = [0, 3]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]', err: /model_id\[1\].*range/ },
  {
    name: 'id in range without workers',
    text: 'model_id = [0, 7]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]',
    ok: { w: [0, 7], a: [[], 'all'], s: ['a', 'b'] },
  },
  { name: 'negative id', workers: 3, text: 'model_id = [-1]\nsubtasks = ["a"]\naccess_list = [[]]', err: /model_id\[0\]/ },
  { name: 'forward ref', workers: 3, text: 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [2], []]', err: /access_list\[1\].*forward/ },
  { name: 'self ref', workers: 3, text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], [1]]', err: /access_list\[1\].*self/ },
  { name: 'first step ref', workers: 3, text: 'model_id = [0]\nsubtasks = ["a"]\naccess_list = [[0]]', err: /access_list\[0\]/ },
  { name: 'negative access', workers: 3, text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], [-1]]', err: /access_list\[1\]/ },
  { name: 'zero steps', workers: 3, text: 'model_id = []\nsubtasks = []\naccess_list = []', err: /empty/ },
  {
    name: 'zero steps recursion',
    workers: 3,
    recursion: true,
    text: 'The previous answer is correct, keep it.\nmodel_id = []\nsubtasks = []\naccess_list = []',
    keep: true,
  },
  { name: 'recursion partial empty', workers: 3, recursion: true, text: 'model_id = []\nsubtasks = ["a"]\naccess_list = []', err: /subtasks|equal/ },
  {
    name: 'six steps',
    workers: 3,
    text: 'model_id = [0,1,2,0,1,2]\nsubtasks = ["a","b","c","d","e","f"]\naccess_list = [[],"all","all","all","all","all"]',
    err: /too many|at most 5/,
  },
  {
    name: 'five steps ok',
    workers: 3,
    text: 'model_id = [0,1,2,0,1]\nsubtasks = ["a","b","c","d","e"]\naccess_list = [[],"all","all","all","all"]',
    ok: { w: [0, 1, 2, 0, 1], a: [[], 'all', 'all', 'all', 'all'], s: ['a', 'b', 'c', 'd', 'e'] },
  },
  { name: 'max steps 2', workers: 3, maxSteps: 2, text: 'model_id = [0,1,2]\nsubtasks = ["a","b","c"]\naccess_list = [[],"all","all"]', err: /at most 2/ },
  { name: 'nested garbage model ids', workers: 3, text: 'model_id = [[0], [1]]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]', err: /model_id\[0\]/ },
  {
    name: 'extra text after',
    workers: 3,
    text: `${canon}\n\nThis plan lets model 2 solve first, model 0 check, and model 1 write the final answer. Note the access list gives later steps everything.`,
    ok: { w: [2, 0, 1], a: [[], 'all', 'all'], s: CANON_SUBTASKS },
  },
  {
    name: 'explanation restating access after',
    workers: 3,
    text: `model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [0], [0, 1]]\n\nExplanation: step 2 has access: [0, 1], i.e. it sees both.`,
    ok: { w: [0, 1, 2], a: [[], [0], [0, 1]], s: ['a', 'b', 'c'] },
  },
  { name: 'binary rejects index', workers: 3, access: 'binary', text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], [0]]', err: /binary/ },
  {
    name: 'binary ok',
    workers: 3,
    access: 'binary',
    text: 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], ["all"], "all"]',
    ok: { w: [0, 1, 2], a: [[], 'all', 'all'], s: ['a', 'b', 'c'] },
  },
  {
    name: 'unquoted all',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], all]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'string ids',
    workers: 3,
    text: 'model_id = ["0", "2"]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]',
    ok: { w: [0, 2], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'Model N strings',
    workers: 3,
    text: 'model_id = ["Model 1", "Model id 2"]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]',
    ok: { w: [1, 2], a: [[], 'all'], s: ['a', 'b'] },
  },
  { name: 'float id', workers: 3, text: 'model_id = [0.5]\nsubtasks = ["a"]\naccess_list = [[]]', err: /model_id\[0\]/ },
  {
    name: 'bold labels',
    workers: 3,
    text: '**model_id** = [1, 0]\n**subtasks** = ["Solve", "Verify"]\n**access_list** = [[], "all"]',
    ok: { w: [1, 0], a: [[], 'all'], s: ['Solve', 'Verify'] },
  },
  {
    name: 'bullets',
    workers: 3,
    text: '- model_id: [1, 0]\n- subtasks: ["Solve", "Verify"]\n- access_list: [[], "all"]',
    ok: { w: [1, 0], a: [[], 'all'], s: ['Solve', 'Verify'] },
  },
  {
    name: 'other order',
    workers: 3,
    text: 'subtasks = ["Solve", "Verify"]\nmodel_id = [2, 1]\naccess_list = [[], "all"]',
    ok: { w: [2, 1], a: [[], 'all'], s: ['Solve', 'Verify'] },
  },
  {
    name: 'tuples',
    workers: 3,
    text: 'model_id = (0, 1)\nsubtasks = ("Solve", "Verify")\naccess_list = ([], "all")',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve', 'Verify'] },
  },
  {
    name: 'hash inside string',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["Count the # of primes below 100."]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Count the # of primes below 100.'] },
  },
  {
    name: 'python comments',
    workers: 3,
    text: '```python\nmodel_id = [0, 1]  # solver, then checker\nsubtasks = [\n    # Step 0: solve\n    "Solve it.",\n    # Step 1: verify\n    "Verify it.",\n]\naccess_list = [[], ["all"]]  # checker sees solver\n```',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve it.', 'Verify it.'] },
  },
  { name: 'empty subtask', workers: 3, text: 'model_id = [0, 1]\nsubtasks = ["Solve", ""]\naccess_list = [[], "all"]', err: /subtasks\[1\].*empty/ },
  { name: 'numeric subtask', workers: 3, text: 'model_id = [0]\nsubtasks = [42]\naccess_list = [[]]', err: /subtasks\[0\]/ },
  {
    name: 'semicolons',
    workers: 3,
    text: 'model_id = [2, 0];\nsubtasks = ["Solve", "Check"];\naccess_list = [[], "all"];',
    ok: { w: [2, 0], a: [[], 'all'], s: ['Solve', 'Check'] },
  },
  { name: 'one line', workers: 3, text: 'So: model_id = [0], subtasks = ["Solve it"], access_list = [[]].', ok: { w: [0], a: [[]], s: ['Solve it'] } },
  {
    name: 'prose mention without brackets',
    workers: 3,
    text: 'I will give model_id 2 the hard part, and the access list will be all.\n\nmodel_id = [2, 1]\nsubtasks = ["Hard part", "Easy part"]\naccess_list = [[], "all"]',
    ok: { w: [2, 1], a: [[], 'all'], s: ['Hard part', 'Easy part'] },
  },
  {
    name: 'placeholder in prose',
    workers: 3,
    text: 'The format is model_id = [...], subtasks = [...], access_list = [...].\n\nmodel_id = [1]\nsubtasks = ["Do it"]\naccess_list = [[]]',
    ok: { w: [1], a: [[]], s: ['Do it'] },
  },
  { name: 'random brackets garbage', workers: 3, text: 'model_id = [[[[[[ subtasks = ]]]]] access_list = [[}', err: /.+/ },
  {
    name: 'deep nesting',
    workers: 3,
    text: 'model_id = ' + '['.repeat(5000) + '0' + ']'.repeat(5000) + '\nsubtasks = ["a"]\naccess_list = [[]]',
    err: /^could not read the model_id list: lists are nested more than 32 deep/,
  },
  {
    name: 'access none',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [None, "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'access mixed index all',
    workers: 3,
    text: 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [0], [0, "all"]]',
    err: /access_list\[2\]/,
  },
  {
    name: 'first step all',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = ["all", "all"]',
    ok: { w: [0, 1], a: ['all', 'all'], s: ['a', 'b'] },
  },
  {
    name: 'duplicate indices',
    workers: 3,
    text: 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [0], [0, 0, 1]]',
    ok: { w: [0, 1, 2], a: [[], [0], [0, 1]], s: ['a', 'b', 'c'] },
  },
  {
    name: 'label own line',
    workers: 3,
    text: 'Model ID:\n[0, 1]\n\nSubtasks:\n["Solve", "Check"]\n\nAccess list:\n[[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve', 'Check'] },
  },
  {
    name: 'headings',
    workers: 3,
    text: '### Model IDs\n[0, 1]\n### Subtasks\n["Solve", "Check"]\n### Access List\n[[], ["all"]]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve', 'Check'] },
  },
  {
    name: 'xml tags',
    workers: 3,
    text: '<model_id>[0, 1]</model_id>\n<subtasks>["Solve", "Check"]</subtasks>\n<access_list>[[], "all"]</access_list>',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve', 'Check'] },
  },
  {
    name: 'subtasks as bullets not list',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks:\n1. Solve it\n2. Check it\naccess_list = [[], "all"]',
    err: /subtasks/,
  },
  {
    name: 'single quotes in double',
    workers: 3,
    text: `model_id = [0]\nsubtasks = ["Say 'hello' to the user."]\naccess_list = [[]]`,
    ok: { w: [0], a: [[]], s: ["Say 'hello' to the user."] },
  },
  {
    name: 'unescaped inner double quotes',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["Explain why the "greedy" approach fails.", "Check it."]\naccess_list = [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Explain why the "greedy" approach fails.', 'Check it.'] },
  },
  {
    name: 'dont in single quotes',
    workers: 3,
    text: "model_id = [0, 1]\nsubtasks = ['Don't guess; compute.', 'Check it, and don't skip steps.']\naccess_list = [[], 'all']",
    ok: { w: [0, 1], a: [[], 'all'], s: ["Don't guess; compute.", "Check it, and don't skip steps."] },
  },
  {
    name: 'unicode',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["求解方程 x² = 4，给出所有解。"]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['求解方程 x² = 4，给出所有解。'] },
  },
  {
    name: 'crlf',
    workers: 3,
    text: 'model_id = [0, 1]\r\nsubtasks = ["Solve", "Check"]\r\naccess_list = [[], "all"]\r\n',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve', 'Check'] },
  },
  { name: 'fullwidth colon', workers: 3, text: 'model_id：[0]\nsubtasks：["Solve"]\naccess_list：[[]]', ok: { w: [0], a: [[]], s: ['Solve'] } },
  {
    name: 'string indices access',
    workers: 3,
    text: 'model_id = ["1", "2"]\nsubtasks = ["a", "b"]\naccess_list = [[], ["0"]]',
    ok: { w: [1, 2], a: [[], [0]], s: ['a', 'b'] },
  },
  {
    name: 'restated model_id in prose after',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["Solve", "Check"]\naccess_list = [[], "all"]\n\nSo model_id = [0, 1] means model 0 solves and model 1 checks.',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve', 'Check'] },
  },
  {
    name: 'qwen verbose realistic',
    workers: 4,
    text:
      T`To solve this question, let us think step by step how to split this question into subtasks, models and access lists.

1. The problem asks for the number of positive divisors of 2^{10} \cdot 3^5. This is straightforward.
2. Model 1 is good at math, so I will assign it the computation.
3. Then Model 3 can verify.

Therefore:

` +
      '```python\nmodel_id = [1, 3]\nsubtasks = [\n    "Find the number of positive divisors of $2^{10} \\cdot 3^5$. Show your reasoning.",\n    "Verify the count from the previous step using the formula $(a+1)(b+1)$ and give the final answer in \\boxed{}."\n]\naccess_list = [[], ["all"]]\n```',
    ok: {
      w: [1, 3],
      a: [[], 'all'],
      s: [
        'Find the number of positive divisors of $2^{10} \\cdot 3^5$. Show your reasoning.',
        'Verify the count from the previous step using the formula $(a+1)(b+1)$ and give the final answer in \\boxed{}.',
      ],
    },
  },
  {
    name: 'access key alone',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess = [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'per-step json objects',
    workers: 3,
    text: '[{"model_id": 0, "subtask": "Solve", "access": []}, {"model_id": 1, "subtask": "Check", "access": "all"}]',
    err: /^missing the model_id and subtasks lists/,
  },
  { name: 'model_id bare words', workers: 3, text: 'model_id = [zero, one]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]', err: /model_id/ },
  {
    name: 'subtasks unquoted words',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = [Solve the problem, Check the answer]\naccess_list = [[], all]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Solve the problem', 'Check the answer'] },
  },
  {
    name: 'access all lowercase variants',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], ["ALL"]]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  { name: 'single step no access list brackets', workers: 3, text: 'model_id = [0]\nsubtasks = ["Solve"]\naccess_list = []', err: /access_list/ },
  {
    name: 'newline inside subtasks list many',
    workers: 5,
    text: 'model_id = [4,\n 3,\n 0]\nsubtasks = ["Plan the algorithm.",\n "Implement it in Python:\\n```python\\ndef f(a):\\n    return a[::-1]\\n```",\n "Review and return final code."]\naccess_list = [[],\n [0],\n "all"]',
    ok: {
      w: [4, 3, 0],
      a: [[], [0], 'all'],
      s: ['Plan the algorithm.', 'Implement it in Python:\n```python\ndef f(a):\n    return a[::-1]\n```', 'Review and return final code.'],
    },
  },
  {
    name: 'markdown escaped underscore',
    workers: 3,
    text: 'model\\_id = [0, 1]\nsubtasks = ["a", "b"]\naccess\\_list = [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'final prefix labels',
    workers: 3,
    text: 'final_model_id = [2]\nfinal_subtasks = ["Answer"]\nfinal_access_list = [[]]',
    ok: { w: [2], a: [[]], s: ['Answer'] },
  },
  { name: 'model_id with trailing text item', workers: 3, text: 'model_id = [0, 1, ...]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]', err: /model_id/ },
  {
    name: 'access list of strings indices',
    workers: 3,
    text: 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = ["[]", "[0]", "[0, 1]"]',
    ok: { w: [0, 1, 2], a: [[], [0], [0, 1]], s: ['a', 'b', 'c'] },
  },
  { name: 'bool model id', workers: 3, text: 'model_id = [True]\nsubtasks = ["a"]\naccess_list = [[]]', err: /model_id\[0\]/ },
  { name: 'workers 1 id 1', workers: 1, text: 'model_id = [1]\nsubtasks = ["a"]\naccess_list = [[]]', err: /range/ },
  {
    name: 'python raw string latex',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = [r"Compute \\frac{a}{b} with \\nabla f"]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Compute \\frac{a}{b} with \\nabla f'] },
  },
  {
    name: 'latex \\begin \\right \\binom',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["Find \\binom{5}{2} and \\begin{pmatrix}1\\\\2\\end{pmatrix} \\right)"]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Find \\binom{5}{2} and \\begin{pmatrix}1\\2\\end{pmatrix} \\right)'] },
  },
  {
    name: 'reasoning list of options then final',
    workers: 3,
    text: 'Options: [0, 1, 2] are available. Access options: ["all", []].\nmodel_id = [0]\nsubtasks = ["Solve"]\naccess_list = [["all"]]',
    ok: { w: [0], a: ['all'], s: ['Solve'] },
  },
  {
    name: 'truncated final model_id after draft',
    workers: 3,
    text: 'Draft:\nmodel_id = [0, 1]\nsubtasks = ["Solve.", "Check."]\naccess_list = [[], "all"]\nBetter:\nmodel_id = [1, 2, ',
    err: /could not read the model_id/,
  },
  {
    name: 'truncated final access after draft',
    workers: 3,
    text: 'Draft:\nmodel_id = [0, 1]\nsubtasks = ["Solve.", "Check."]\naccess_list = [[], "all"]\nBetter:\nmodel_id = [1, 2]\nsubtasks = ["Solve it.", "Check it."]\naccess_list = [[], ["a',
    err: /could not read the access_list/,
  },
  {
    name: 'unclosed typo in reasoning then final',
    workers: 3,
    text: 'I might write model_id = [0, 1 hmm no.\n\nmodel_id = [1]\nsubtasks = ["Solve"]\naccess_list = [[]]',
    ok: { w: [1], a: [[]], s: ['Solve'] },
  },
  {
    name: 'deep json access',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["a"]\naccess_list = ' + '['.repeat(100000) + ']'.repeat(100000),
    err: /access_list/,
  },
  {
    name: 'latex b f v a commands',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["Show \\boldsymbol{v} \\vdash \\fbox{x} and \\bigl( \\arg z \\bigr) with \\varnothing"]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Show \\boldsymbol{v} \\vdash \\fbox{x} and \\bigl( \\arg z \\bigr) with \\varnothing'] },
  },
  {
    name: 'latex t n r commands',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["Use \\tfrac{1}{2}, \\textrm{cm}, \\nexists, \\rbrace, \\tbinom{4}{2}"]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Use \\tfrac{1}{2}, \\textrm{cm}, \\nexists, \\rbrace, \\tbinom{4}{2}'] },
  },
  {
    name: 'newline then lowercase',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["Step one.\\nthen step two.\\tindented"]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Step one.\nthen step two.\tindented'] },
  },
  {
    name: 'nested unquoted all',
    workers: 3,
    text: 'model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [all], [all]]',
    ok: { w: [0, 1, 2], a: [[], 'all', 'all'], s: ['a', 'b', 'c'] },
  },
  {
    name: 'empty-string access',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = ["", "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'bare int access',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], 0]',
    ok: { w: [0, 1], a: [[], [0]], s: ['a', 'b'] },
  },
  { name: 'vague access word', workers: 3, text: 'model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], "previous"]', err: /access_list\[1\]/ },
  {
    name: 'bare Model N ids',
    workers: 3,
    text: 'model_id = [Model 0, Model 2]\nsubtasks = ["a", "b"]\naccess_list = [[], "all"]',
    ok: { w: [0, 2], a: [[], 'all'], s: ['a', 'b'] },
  },
  { name: 'no spaces', workers: 3, text: 'model_id=[0,1]\nsubtasks=["a","b"]\naccess_list=[[],["all"]]', ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] } },
  {
    name: 'upper labels',
    workers: 3,
    text: 'MODEL_ID = [0, 1]\nSUBTASKS = ["a", "b"]\nACCESS_LIST = [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'hyphen labels',
    workers: 3,
    text: 'Model-ID: [0, 1]\nSub-tasks: ["a", "b"]\nAccess-list: [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  { name: 'repeated final block', workers: 3, text: `${canon}\n\nTo restate:\n${canon}`, ok: { w: [2, 0, 1], a: [[], 'all', 'all'], s: CANON_SUBTASKS } },
  {
    name: 'label text inside subtask',
    workers: 3,
    text: 'model_id = [0, 1]\nsubtasks = ["Write a parser for model_id = [0] style lists.", "Test it on access_list = [[]]."]\naccess_list = [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['Write a parser for model_id = [0] style lists.', 'Test it on access_list = [[]].'] },
  },
  {
    name: 'triple quoted',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["""Solve:\nx + 1 = 2"""]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Solve:\nx + 1 = 2'] },
  },
  {
    name: 'annotation',
    workers: 3,
    text: 'model_id: list[int] = [0, 1]\nsubtasks: list[str] = ["a", "b"]\naccess_list: list = [[], "all"]',
    ok: { w: [0, 1], a: [[], 'all'], s: ['a', 'b'] },
  },
  {
    name: 'implicit concat',
    workers: 3,
    text: 'model_id = [0]\nsubtasks = ["Solve the first part "\n    "and then the second."]\naccess_list = [[]]',
    ok: { w: [0], a: [[]], s: ['Solve the first part and then the second.'] },
  },
  {
    name: 'json lowercase true',
    workers: 3,
    text: '{"model_id": [0], "subtasks": ["a"], "access_list": [[]], "done": true}',
    ok: { w: [0], a: [[]], s: ['a'] },
  },
  {
    name: 'truncated explanation after complete lists',
    workers: 3,
    text: `${canon}\n\nWhy: the subtasks: ["solve", "check", "wri`,
    ok: { w: [2, 0, 1], a: [[], 'all', 'all'], s: CANON_SUBTASKS },
  },
];

function summary(r: ParseResult): unknown {
  if (!r.ok) return { error: r.error };
  if (r.keep) return { keep: true };
  return { w: r.workflow.steps.map((s) => s.worker), a: r.workflow.steps.map((s) => s.access), s: r.workflow.steps.map((s) => s.subtask) };
}

describe('parseWorkflow on an independent corpus', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const r = parseWorkflow(c.text, { workers: c.workers, maxSteps: c.maxSteps, access: c.access, recursion: c.recursion });
    if (c.keep) expect(summary(r)).toEqual({ keep: true });
    else if (c.ok) expect(summary(r)).toEqual(c.ok);
    else {
      expect(r.ok, JSON.stringify(r)).toBe(false);
      if (!r.ok) expect(r.error).toMatch(c.err!);
    }
  });
});
