/** The CLI as a program: bin/baton.js runs it from the sources, and it is the entry point of the bundled `baton.mjs` (cli/bundle.ts). */
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
