import { BatonError } from '../../errors/index.ts';
import type { Task } from '../../task.ts';
import { parseCsvObjects, parseJsonl, requireField } from '../../formats/index.ts';

// Loaders take file text, so the page can fetch it and Node can read it from disk.

/** The letters that name options, in order (an MMLU question uses the first four). */
export const OPTION_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** GSM8K jsonl ({question, answer} with the final number after '#### '): the gold is that number. */
export function loadGsm8k(text: string, dataset = 'gsm8k'): Task[] {
  return parseJsonl(text, dataset).map((r, i) => {
    const where = `${dataset}, item ${i + 1}`;
    const solution = requireField(r, 'answer', where);
    if (!solution.includes('####')) throw new BatonError({ code: 'data/invalid', message: `${where}: answer has no "#### <number>" line.` });
    const gold = solution.split('####').pop()!.trim().replace(/,/g, '');
    return { question: requireField(r, 'question', where), answer: gold, kind: 'gsm8k', dataset, itemId: String(i) };
  });
}

/** MATH500 jsonl ({problem, answer, unique_id}): LaTeX answers. */
export function loadMath500(text: string, dataset = 'math500'): Task[] {
  return parseJsonl(text, dataset).map((r, i) => {
    const where = `${dataset}, item ${i + 1}`;
    return {
      question: requireField(r, 'problem', where),
      answer: requireField(r, 'answer', where),
      kind: 'math',
      dataset,
      itemId: typeof r.unique_id === 'string' ? r.unique_id : String(i),
    };
  });
}

/** AIME jsonl ({id, problem, answer}): integer answers, zero padding dropped. */
export function loadAime(text: string, dataset = 'aime2024'): Task[] {
  return parseJsonl(text, dataset).map((r, i) => {
    const where = `${dataset}, item ${i + 1}`;
    const answer = requireField(r, 'answer', where).trim();
    return {
      question: requireField(r, 'problem', where),
      answer: /^\d+$/.test(answer) ? String(Number(answer)) : answer,
      kind: 'number',
      dataset,
      itemId: r.id === undefined ? String(i) : String(r.id),
    };
  });
}

/**
 * The question as MMLU prompts (and RouteLLM's records) show it: the stem, then one "X. option" line each. A
 * question whose last lines already list the options in order ("A) x", "A. x", "(A) x": RouterBench's prompts, a
 * task file Baton wrote) keeps its own listing, so the options are not given twice and replay finds the question.
 */
export function formatMcqQuestion(stem: string, choices: string[]): string {
  if (listsOptions(stem, choices)) return stem;
  return [stem, ...choices.map((c, i) => `${OPTION_LETTERS[i]}. ${c}`)].join('\n');
}

function listsOptions(question: string, choices: string[]): boolean {
  const lines = question.trimEnd().split('\n').slice(1).slice(-choices.length);
  return (
    choices.length > 0 &&
    lines.length === choices.length &&
    lines.every((line, i) => {
      const listed = /^\(?([A-Z])[).:]\s*(.*)$/.exec(line.trim());
      return listed?.[1] === OPTION_LETTERS[i] && listed[2] === choices[i].trim();
    })
  );
}

/** The subject of an MMLU task, from its item id ("college_biology/12" from loadMmluCsv). */
export function mmluSubject(task: Pick<Task, 'itemId'>): string {
  return (task.itemId ?? '').split('/')[0];
}

/** MMLU's standard prompt: "The following are multiple choice questions about {subject}.", then the question. */
export function mmluStandardPrompt(subject: string, question: string): string {
  return `The following are multiple choice questions about ${subject.replace(/_/g, ' ')}.\n\n${question}`;
}

/** An MMLU test csv (question, choice0..choice3, answer 0-3). `subject` goes into item ids. */
export function loadMmluCsv(text: string, subject = 'mmlu'): Task[] {
  return parseCsvObjects(text, `mmlu ${subject}`).map((r, i) => {
    const where = `mmlu ${subject}, row ${i + 1}`;
    const choices = [0, 1, 2, 3].map((k) => requireField(r, `choice${k}`, where));
    const index = Number(requireField(r, 'answer', where));
    if (!Number.isInteger(index) || index < 0 || index >= choices.length) {
      throw new BatonError({ code: 'data/invalid', message: `${where}: answer must be 0-3, got "${r.answer}".` });
    }
    return {
      question: formatMcqQuestion(requireField(r, 'question', where), choices),
      answer: OPTION_LETTERS[index],
      kind: 'mcq',
      dataset: 'mmlu',
      itemId: `${subject}/${i}`,
      choices,
    };
  });
}

/**
 * HumanEval jsonl ({task_id, prompt, entry_point, test, ...}): kind 'code', the question is the prompt,
 * the gold is the JSON core/reward's gradeCode runs (prompt, test and entry point).
 */
export function loadHumanEval(text: string, dataset = 'humaneval'): Task[] {
  return parseJsonl(text, dataset).map((r, i) => {
    const where = `${dataset}, item ${i + 1}`;
    const prompt = requireField(r, 'prompt', where);
    const gold = { prompt, test: requireField(r, 'test', where), entry_point: requireField(r, 'entry_point', where) };
    return { question: prompt, answer: JSON.stringify(gold), kind: 'code', dataset, itemId: typeof r.task_id === 'string' ? r.task_id : String(i) };
  });
}
