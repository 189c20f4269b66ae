#!/usr/bin/env node
// Runs the TypeScript CLI directly (no build step), so `npx baton` works right after `npm ci`.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../src/node/cli/cli.ts');
process.exitCode = await main(process.argv.slice(2));
