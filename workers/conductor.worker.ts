/** The Conductor web worker: runs Ask episodes off the page's thread. Construct the service, expose it. */
import { expose } from 'comlink';
import '../src/core/errors/error-transfer.ts';
import { AskService } from '../src/services/conductor/index.ts';

expose(new AskService());
