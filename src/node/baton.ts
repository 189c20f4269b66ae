/** The CLI as a program: bin/baton.js runs it from the sources, and it is the entry point of the bundled `baton.mjs` (cli/bundle.ts). */
import { main } from './main.ts';

// A reader that stops early (`baton episodes export | head`) closes the pipe: end quietly, as Unix tools do.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

process.exitCode = await main(process.argv.slice(2));
