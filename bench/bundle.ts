/**
 * A bench script as one ES module, for a machine with Node's binary and a GPU but no npm or network (bench/ENGINE.md:
 * a lent GPU machine): bundleScript, as `baton export train-bundle` bundles the CLI, with `webgpu` left out (copy its
 * package.json, index.js and dist/<platform>/dawn.node into node_modules/webgpu/ beside the bundle) and data/ read
 * from this repository, wherever the bundle is written inside it. A bench that writes a random start needs Qwen's
 * tokenizer package, which the bundle does not carry: write the start here first (bench:cost-frontier's --keep DIR,
 * with DIR/base).
 * Run: npm run bench:bundle -- bench/cost-frontier.ts .dev/cost-frontier.mjs
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { bundleScript } from '../src/node/cli/index.ts';

const [entry, out] = process.argv.slice(2);
if (!entry || !out) throw new Error('usage: npm run bench:bundle -- SCRIPT.ts OUT.mjs');
const root = resolve(import.meta.dirname, '..');
const target = resolve(out);
const data = relative(dirname(target), resolve(root, 'data'));
if (relative(root, target).startsWith('..')) throw new Error(`${out}: write the bundle inside the repository (${root}), so that it finds data/`);
await mkdir(dirname(target), { recursive: true });
await writeFile(target, await bundleScript(resolve(entry), `${data}/`));
console.log(JSON.stringify({ bench: 'bundle', entry, out: target, data: `${data}/` }));
