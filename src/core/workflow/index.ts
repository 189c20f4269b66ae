export * from './types.ts';
export { parseWorkflow } from './parse.ts';
export { renderWorkflow } from './render.ts';
export { buildConductorPrompt, buildRecursionTurn, CONDUCTOR_PREFILL, RECURSION_PREFILL } from './prompt.ts';
export { EXAMPLES, pickExamples, type WorkedExample } from './examples.ts';
export { boundThread, cutMiddle, threadBlock, THREAD_CHARS, THREAD_TURNS, type ThreadTurn } from './thread.ts';
