/**
 * Which Conductor writes the workflows, for Ask, training, evaluation and `baton run` alike: one choice for every
 * host (conductor-choice.ts: plain data and words, which the page's first paint carries), its text form
 * (conductor-text.ts), and createConductor over a host's port, with the Conductors it makes (a model on Baton's
 * engine, random routing).
 */
export {
  DEMO_ENGINE_MODEL,
  ENGINE_WEIGHTS,
  conductorUrls,
  describeConductor,
  describeSource,
  engineSourceText,
  hubRepoId,
  type ConductorChoice,
  type EngineAdapterSource,
  type EngineFilesSource,
  type EngineModelChoice,
  type EngineModelSource,
  type EngineWeights,
} from './conductor-choice.ts';
export {
  CONDUCTOR_CHOICE_HELP,
  conductorChoiceText,
  defaultEngineWeights,
  parseConductorChoice,
  splitHead,
  webAdapterSource,
  webModelSource,
  type ModelNaming,
} from './conductor-text.ts';
export { engineConductor, type EngineRunContext, type LoadedConductorModel } from './engine-conductor.ts';
export {
  conductorMaker,
  createConductor,
  notInPool,
  type ConductorHost,
  type ConductorMaker,
  type ConductorRun,
  type ConductorSettings,
  type WebllmSampling,
} from './create-conductor.ts';
export { CHOICE_TRAINING, trainOnChoices, type ChoiceTrainingDeps, type ChoiceTrainingResult, type ChoiceTrainingSettings } from './learn-from-choices.ts';
export { followsPick, pickAgreement, type PickAgreement } from './pick-agreement.ts';
export { createRandomRoutingConductor, SOLVE_SUBTASK } from './random-routing-conductor.ts';
export { unmadeConductor } from './unmade-conductor.ts';
