/** The page's handle on the trainer web worker: TrainerService, typed, across the thread boundary. */
import { proxy } from 'comlink';
import '../core/errors/error-transfer.ts';
import type { EngineModelSource } from '../core/conductor/index.ts';
import type { ChoiceTrainingProgress, TrainerService, TrainingProgress } from '../services/trainer/api.ts';
import { serviceOnFirstUse } from './web-worker-under-policy.ts';
import trainerWorkerUrl from '../../workers/trainer.worker.ts?worker&url';

/** The trainer worker, started on first use (only the Train page needs it). */
export const trainerInService = serviceOnFirstUse<TrainerService>(trainerWorkerUrl, 'trainer');

/** Calls `listener` with the run's progress now and on every change. */
export function watchTraining(listener: (progress: TrainingProgress) => void): Promise<void> {
  return trainerInService().watch(proxy(listener));
}

/** "Train on my choices" on `model`; `listener` hears its progress until it ends. */
export function trainOnChoices(model: EngineModelSource, listener: (progress: ChoiceTrainingProgress) => void): Promise<void> {
  return trainerInService().trainOnChoices(model, proxy(listener));
}
