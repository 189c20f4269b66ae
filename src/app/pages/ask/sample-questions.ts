import type { Task } from '../../../core/task.ts';

/** Questions with gold answers, so the simulated demo pool can answer and the run can be graded. */
export const SAMPLE_QUESTIONS: readonly Task[] = [
  { question: 'What is 17 × 23?', answer: '391', kind: 'number' },
  { question: 'A train covers 120 km in 1.5 hours. What is its average speed in km/h?', answer: '80', kind: 'number' },
  {
    question: 'Which planet is known as the Red Planet?\nA) Venus\nB) Mars\nC) Jupiter\nD) Saturn',
    answer: 'B',
    kind: 'mcq',
    choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'],
  },
  { question: 'Write $\\frac{6}{8}$ in lowest terms.', answer: '\\frac{3}{4}', kind: 'math' },
];
