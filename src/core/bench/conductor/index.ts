/** Which Conductor writes the workflows: one choice for every host (its text form is eval/conductor-text.ts), and createConductor over a host's port. */
export {
  DEMO_ENGINE_MODEL,
  ENGINE_WEIGHTS,
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
  type ModelDir,
} from './conductor-choice.ts';
export { CONDUCTOR_MAX_NEW_TOKENS, conductorSampling, engineConductor, type EngineRunContext, type LoadedConductorModel } from './engine-conductor.ts';
export {
  conductorMaker,
  createConductor,
  type ConductorHost,
  type ConductorMaker,
  type ConductorRun,
  type ConductorSettings,
  type GpuTurns,
  type WebllmSampling,
} from './create-conductor.ts';
