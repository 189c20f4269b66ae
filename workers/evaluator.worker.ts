/** The evaluator web worker: runs the Evaluate page's evaluations off the page's thread. Construct the service, expose it. */
import { expose } from 'comlink';
import '../src/core/errors/error-transfer.ts';
import { EvaluatorService, browserEvaluatorDeps } from '../src/services/evaluator/index.ts';

expose(new EvaluatorService(browserEvaluatorDeps()));
