/**
 * A TrainablePolicy from its two halves over one model: a Policy that samples and scores, and a
 * DifferentiablePolicy that trains the very weights it samples with (Baton's engine: EnginePolicy and
 * GpuTrainer over one GpuModel). trainStep is grpoStep; once it resolves, the next generateGroup and
 * logprobs already use the updated weights, because nothing was copied.
 */
import type { DifferentiablePolicy } from './differentiable-policy.ts';
import { grpoStep } from './grpo-step.ts';
import type { Policy } from './policy.ts';
import type { TrainablePolicy, TrainingState } from './trainable-policy.ts';

export interface StatefulTrainer extends DifferentiablePolicy {
  exportState(): Promise<TrainingState>;
  importState(state: TrainingState): Promise<void>;
}

export function trainablePolicy(policy: Policy, trainer: StatefulTrainer): TrainablePolicy {
  return {
    promptIds: (prompt, continueFinal) => policy.promptIds(prompt, continueFinal),
    generateGroup: (prompt, options) => policy.generateGroup(prompt, options),
    logprobs: (ids, options) => policy.logprobs(ids, options),
    trainStep: (batch, options) => grpoStep(trainer, batch, options),
    exportState: () => trainer.exportState(),
    importState: (state) => trainer.importState(state),
  };
}
