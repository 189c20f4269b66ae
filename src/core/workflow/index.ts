export * from './types.ts';
export { parseWorkflow } from './parse.ts';
export { renderWorkflow } from './render.ts';
export {
  buildConductorPrompt,
  buildRecursionTurn,
  CONDUCTOR_PREFILL,
  CONDUCTOR_SYSTEM,
  RECURSION_PREFILL,
  type ConductorPromptOptions,
  type RecursionTurnOptions,
} from './prompt.ts';
export { EXAMPLES, pickExamples, type ExampleDomain, type WorkedExample } from './examples.ts';
