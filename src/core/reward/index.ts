export { extractAnswer, lastAnswerBlock } from './extract-answer.ts';
export { mathEquivalent } from './math-equivalent.ts';
export { normalizeLatex } from './normalize-latex.ts';
export { gradeAnswer, gsm8kGold, isGradable } from './grade.ts';
export type { GradableKind, GradeResult } from './grade.ts';
export { computeReward, CODE_REWARD, PAPER_REWARD } from './reward.ts';
export type { RewardScheme, RolloutOutcome } from './reward.ts';
export { numbersClose } from './numeric-close.ts';
