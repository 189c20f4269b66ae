/** The CLI as a program: the entry point of the bundled `baton.mjs` (bundle.ts); bin/baton.js runs the sources. */
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2));
