/** The Python sandbox web worker: grades code answers off the page's thread. Construct the service, expose it. */
import { expose } from 'comlink';
import '../src/core/errors/error-transfer.ts';
import { SandboxService } from '../src/services/sandbox/index.ts';

// Pyodide's files, served beside the app by vite.config.ts (pyodideAssets), never from a CDN.
expose(new SandboxService({ indexURL: new URL(`${import.meta.env.BASE_URL}pyodide/`, import.meta.url).href }));
