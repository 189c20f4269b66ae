/** The trainer web worker: runs the Train page's GRPO run off the page's thread. Construct the service, expose it. */
import { expose } from 'comlink';
import '../src/core/errors/error-transfer.ts';
import { TrainerService } from '../src/services/trainer/index.ts';

expose(new TrainerService());
