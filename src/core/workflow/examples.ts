/**
 * Worked examples shown to the Conductor, one per domain. The paper found examples from domains other
 * than the question's work better than in-domain ones, so the prompt picks by domain (prompt.ts).
 * Access is written positionally; the binary form of an example gives "all" to every step that reads
 * any earlier step. Model ids are roles in a pool of 4 and are folded into the real pool's size.
 */
import type { TaskKind } from '../task.ts';
import type { Step } from './types.ts';

type ExampleDomain = 'arithmetic' | 'medical' | 'coding' | 'history' | 'physics' | 'writing' | 'logic' | 'language' | 'chemistry';

export interface WorkedExample {
  domain: ExampleDomain;
  question: string;
  reasoning: string;
  steps: Step[];
}

export const EXAMPLES: readonly WorkedExample[] = [
  {
    domain: 'arithmetic',
    question: 'Pencils cost $1.20 for a pack of 3 and erasers cost $0.45 each. What do 12 pencils and 5 erasers cost in total?',
    reasoning:
      'This is a short calculation. One model can work it out; a second model that reads the first answer can catch an arithmetic slip and state the final amount.',
    steps: [
      { worker: 2, subtask: 'Work out the total cost of 12 pencils (sold 3 for $1.20) and 5 erasers at $0.45 each. Show each step.', access: [] },
      { worker: 0, subtask: 'Check the calculation above line by line. Correct any mistake and give the final total in dollars.', access: [0] },
    ],
  },
  {
    domain: 'medical',
    question: 'Can a patient who takes low-dose aspirin for heart protection safely take ibuprofen at the same time? Answer yes or no.',
    reasoning:
      'Two independent summaries reduce the chance that one model misremembers the interaction. They do not need each other, so both see only the question; a third model weighs them and gives the yes/no answer.',
    steps: [
      { worker: 1, subtask: "Explain how ibuprofen can interfere with low-dose aspirin's effect on platelets, and when this matters.", access: [] },
      { worker: 3, subtask: 'Summarise what clinical guidance says about combining regular ibuprofen with low-dose aspirin.', access: [] },
      { worker: 0, subtask: 'Using the two explanations above, answer yes or no, then justify the answer in two sentences.', access: [0, 1] },
    ],
  },
  {
    domain: 'coding',
    question: 'Write a Python function longest_increasing(nums) that returns the length of the longest strictly increasing subsequence of a list of integers.',
    reasoning:
      'Code goes well as plan, implement, verify. The planner chooses the algorithm, the implementer follows the plan, and the verifier reads the code, tests edge cases and outputs the final version.',
    steps: [
      {
        worker: 0,
        subtask: 'Describe an O(n log n) algorithm for the length of the longest strictly increasing subsequence. Do not write code yet.',
        access: [],
      },
      { worker: 2, subtask: 'Implement the plan above in Python as def longest_increasing(nums: list[int]) -> int. Output only the code.', access: [0] },
      {
        worker: 1,
        subtask: 'Test the code above on an empty list, equal elements and a decreasing list. Fix any bug and output the complete final code.',
        access: [1],
      },
    ],
  },
  {
    domain: 'history',
    question: 'Which two kingdoms signed the Treaty of Tordesillas, and in which year?',
    reasoning: 'A single fact that a well-read model knows. One step is enough; more steps would only add cost.',
    steps: [{ worker: 3, subtask: 'Name the two kingdoms that signed the Treaty of Tordesillas and the year it was signed.', access: [] }],
  },
  {
    domain: 'physics',
    question:
      'A ball is thrown straight up at 14 m/s. Ignoring air resistance and taking g = 9.8 m/s^2, how high does it rise and after how long does it land?',
    reasoning:
      'Solving the problem two different ways and comparing the results is a strong check. The two solvers work independently; the last step compares them and states the answer.',
    steps: [
      { worker: 1, subtask: 'Use the kinematic equations to find the maximum height and the total time in the air.', access: [] },
      { worker: 2, subtask: 'Find the maximum height from energy conservation and the flight time from the symmetry of the motion.', access: [] },
      {
        worker: 0,
        subtask: 'Compare the two solutions above. If they differ, find the error. State the height in metres and the time in seconds.',
        access: [0, 1],
      },
    ],
  },
  {
    domain: 'writing',
    question: 'Write a four-line poem about autumn in which every line starts with the letter S.',
    reasoning: 'One model writes; an editor checks the constraint that is easy to break and returns the final poem.',
    steps: [
      { worker: 3, subtask: 'Write a four-line poem about autumn. Every line must start with the letter S.', access: [] },
      {
        worker: 1,
        subtask: 'Check that the poem above has exactly four lines, each starting with S. Rewrite any line that fails and output only the final poem.',
        access: [0],
      },
    ],
  },
  {
    domain: 'logic',
    question: 'Anna is older than Ben, Ben is older than Cara, and Dan is younger than Cara. Who is the second youngest?',
    reasoning: 'A short deduction: one model orders the people, a second checks the order against every fact before answering.',
    steps: [
      { worker: 1, subtask: 'Use the facts to order Anna, Ben, Cara and Dan from youngest to oldest, then name the second youngest.', access: [] },
      {
        worker: 0,
        subtask: 'Check the order above against each of the three facts. Fix it if needed and give only the name of the second youngest.',
        access: [0],
      },
    ],
  },
  {
    domain: 'language',
    question: 'Translate "Where is the railway station, please?" into French.',
    reasoning: 'A direct translation of one sentence: a single step by a model that writes good French.',
    steps: [{ worker: 2, subtask: 'Translate "Where is the railway station, please?" into natural French. Output only the translation.', access: [] }],
  },
  {
    domain: 'chemistry',
    question: 'Which gas is released when zinc reacts with hydrochloric acid, and how is it identified in the lab?',
    reasoning: 'Recall plus a practical detail: one model answers, a second checks the chemistry and adds the lab test.',
    steps: [
      { worker: 3, subtask: 'Name the gas released when zinc reacts with hydrochloric acid and write the balanced equation.', access: [] },
      { worker: 1, subtask: 'Check the answer above and correct it if needed, then describe the standard lab test that identifies the gas.', access: [0] },
    ],
  },
];

/** The domains a question of each kind belongs to, so that examples come from the others. */
const KIND_DOMAINS: Record<TaskKind, readonly ExampleDomain[]> = {
  math: ['arithmetic', 'physics', 'logic'],
  gsm8k: ['arithmetic', 'physics', 'logic'],
  number: ['arithmetic', 'physics', 'logic'],
  code: ['coding'],
  literal: ['coding'],
  mcq: ['medical', 'history'],
  exact: ['history'],
  open: ['writing'],
};

/**
 * Up to `count` examples whose domain differs from a question of `kind` (any, when kind is unknown) and
 * that fit in `maxSteps` (an example longer than the limit would contradict the instructions). The bank
 * gives four for every kind when maxSteps >= 2; with maxSteps = 1 only the one-step examples remain.
 */
export function pickExamples(kind: TaskKind | undefined, count = 4, maxSteps = Infinity): WorkedExample[] {
  const avoid = kind ? KIND_DOMAINS[kind] : [];
  return EXAMPLES.filter((e) => !avoid.includes(e.domain) && e.steps.length <= maxSteps).slice(0, count);
}
