/** The CLI's model runtimes: local pool workers on Dawn, and the Conductor a command names (engine, plan file, remote, worker). */
export { CONDUCTOR_CHOICE_HELP, nodeConductorHost, runConductor } from './conductors.ts';
export { NodeLocalModels } from './local-models.ts';
