/** Conductors to beat: fixed strategies that need no training (random routing; MoA, oracle and others with evaluation). */
export { createRandomRoutingConductor, RANDOM_ROUTING_LABEL, sampleRouting, SOLVE_SUBTASK, type RandomRoutingOptions } from './random-routing-conductor.ts';
