/** The Conductor worker: runs Ask episodes off the page's thread. Construct the service, expose it. */
import { expose } from 'comlink';
import { AskService } from '../src/client/ask/ask-service.ts';
import '../src/client/error-transfer.ts';

expose(new AskService());
