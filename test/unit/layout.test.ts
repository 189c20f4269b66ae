/**
 * The layers of docs/architecture.md, checked on every import in src/ and workers/: dependencies point one way
 * (app -> client -> web workers -> services -> {core, engine}; engine -> core's types; core -> nothing
 * of Baton's outside it; inside core, down the order of its folders), no circle between folders, and a folder
 * is reached from outside only through its index.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

const STATIC = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"?]+)/g;
const DYNAMIC = /import\(\s*['"](\.[^'"?]+)/g;
/** `import './x.ts'`: a module imported for what importing it does, with no bindings. */
const BARE = /(?:^|\n)\s*import\s+['"](\.[^'"?]+)['"]/g;

const files = [...sourceFiles('src'), ...sourceFiles('workers')];
const target = (from: string, spec: string) => relative(root, resolve(root, dirname(from), spec));

function edges(): Edge[] {
  return files.flatMap((from) => {
    const text = readFileSync(join(root, from), 'utf8');
    return [
      ...[...text.matchAll(STATIC)].map((m) => ({ from, to: target(from, m[2]), typeOnly: m[1] !== undefined })),
      ...[...text.matchAll(DYNAMIC)].map((m) => ({ from, to: target(from, m[1]), typeOnly: false })),
    ];
  });
}

const all = edges();
const bare = files.flatMap((from) => [...readFileSync(join(root, from), 'utf8').matchAll(BARE)].map((m) => ({ from, to: target(from, m[1]) })));
const under = (path: string, ...areas: string[]) => areas.some((a) => path === a || path.startsWith(`${a}/`));
const offenders = (bad: (e: Edge) => boolean) => all.filter(bad).map((e) => `${e.from} -> ${e.to}`);

/**
 * A folder with its own index: src/<area>/<folder>, src/client as a whole, and src/node/commands/<command>
 * (a large command's folder; a small command is a file of its own in src/node/commands). A file outside
 * such a folder is a module by itself.
 */
function moduleOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'src') return parts[0];
  if (parts[1] === 'client') return parts.slice(0, 2).join('/');
  const depth = parts[1] === 'node' && parts[2] === 'commands' ? 4 : 3;
  return parts.length > depth ? parts.slice(0, depth).join('/') : path;
}

/**
 * core's folders (and its top-level files) from the bottom up: a file imports only from its own folder
 * and the ones before it, type imports included, so core has no circle.
 */
const CORE_ORDER = [
  'errors',
  'random',
  'task',
  'formats',
  'pricing',
  'reward',
  'providers',
  'keys',
  'workflow',
  'episodes',
  'storage',
  'orchestra',
  'rl',
  'conductor',
  'bench',
];

/** The folder a file is in; a file at the top of an area (src/core/task.ts, src/engine/index.ts) stands for itself. */
const folderOf = (path: string) => (/^src\/[^/]+\/[^/]+$/.test(path) ? path : dirname(path));

/**
 * The groups of `nodeOf`'s nodes (modules or folders) that import one another round a circle, runtime and type
 * imports alike: each group once, sorted. A folder and its own subfolder (a folder's index re-exporting it, a
 * subfolder using its parent's types) are no circle.
 */
function circles(nodeOf: (path: string) => string): string[][] {
  const folder = (node: string) => node.replace(/\/index\.ts$/, '');
  const next = new Map<string, Set<string>>();
  for (const { from, to } of all) {
    const [a, b] = [nodeOf(from), nodeOf(to)];
    if (a === b || under(folder(a), folder(b)) || under(folder(b), folder(a))) continue;
    next.set(a, (next.get(a) ?? new Set()).add(b));
  }
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (node: string) => {
      for (const n of next.get(node) ?? []) {
        if (seen.has(n)) continue;
        seen.add(n);
        visit(n);
      }
    };
    visit(start);
    return seen;
  };
  const reached = new Map([...next.keys()].map((node) => [node, reach(node)]));
  const group = (node: string) => [...reached.get(node)!].filter((n) => reached.get(n)?.has(node)).sort();
  const groups = [...next.keys()].filter((node) => reached.get(node)!.has(node)).map((node) => group(node).join(' <-> '));
  return [...new Set(groups)].map((g) => g.split(' <-> '));
}

/** 'providers' for src/core/providers/..., 'task' for src/core/task.ts. */
const coreFolder = (path: string) => path.split('/')[2].replace(/\.ts$/, '');

/** A service's second face, beside its index.ts: the types, defaults and pure helpers that cross to the page. */
const isServiceApi = (path: string) => /^src\/services\/[^/]+\/api\.ts$/.test(path);

/** Reached by path on purpose, each for its reason (said where it is imported). */
const BY_PATH = new Set([
  'src/core/errors/error-transfer.ts', // a side-effect module: importing it registers the error handler with comlink
  'src/core/bench/datasets/built-in.ts', // the built-in sets' names, which the Evaluate page's first paint carries without the loaders
  'src/engine/model/files-node.ts', // Node-only; the model index stays browser-safe
  'src/engine/runtime/gpu-queue.ts', // the web workers' GPU queue, without the engine they load with their first model
]);

describe('the layers of docs/architecture.md', () => {
  it('finds the imports it checks', () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all).toContainEqual({ from: 'workers/conductor.worker.ts', to: 'src/services/conductor/index.ts', typeOnly: false });
  });

  it('keeps core free of everything else of Baton', () => {
    expect(offenders((e) => under(e.from, 'src/core') && !under(e.to, 'src/core'))).toEqual([]);
  });

  it("places every folder of core in its order, and points core's imports only down it", () => {
    const folders = readdirSync(join(root, 'src/core')).map((name) => name.replace(/\.ts$/, ''));
    expect([...folders].sort()).toEqual([...CORE_ORDER].sort());
    const rank = (path: string) => CORE_ORDER.indexOf(coreFolder(path));
    expect(offenders((e) => under(e.from, 'src/core') && under(e.to, 'src/core') && rank(e.to) > rank(e.from))).toEqual([]);
  });

  it("lets the engine use core's types only, besides its one error class and the one seeded generator", () => {
    const allowed = ['src/core/errors/index.ts', 'src/core/random.ts'];
    expect(offenders((e) => under(e.from, 'src/engine') && under(e.to, 'src/core') && !e.typeOnly && !allowed.includes(e.to))).toEqual([]);
    expect(offenders((e) => under(e.from, 'src/engine') && under(e.to, 'src/app', 'src/client', 'src/services', 'src/node', 'workers'))).toEqual([]);
  });

  it('keeps web workers and services away from the page side', () => {
    expect(offenders((e) => under(e.from, 'workers', 'src/services') && under(e.to, 'src/client', 'src/app'))).toEqual([]);
    expect(offenders((e) => under(e.from, 'src/client') && under(e.to, 'src/app'))).toEqual([]);
  });

  it('lets the page reach a service only through its api.ts, the light face its first paint carries', () => {
    expect(offenders((e) => under(e.from, 'src/client') && under(e.to, 'src/services') && !isServiceApi(e.to))).toEqual([]);
  });

  it('lets the app reach web workers, services and the engine only through src/client', () => {
    expect(offenders((e) => under(e.from, 'src/app') && under(e.to, 'src/services', 'src/engine', 'workers'))).toEqual([]);
  });

  it('keeps the CLI (src/node) to itself: nothing else in src or workers imports it', () => {
    expect(offenders((e) => !under(e.from, 'src/node') && under(e.to, 'src/node'))).toEqual([]);
  });

  it('keeps web-worker entry files to exposing their service: workers/x.worker.ts imports services/x and the error transfer only', () => {
    for (const file of sourceFiles('workers')) expect(readFileSync(join(root, file), 'utf8').split('\n').length, file).toBeLessThan(15);
    const own = (worker: string) => `src/services/${/^workers\/(.+)\.worker\.ts$/.exec(worker)?.[1]}/index.ts`;
    expect(offenders((e) => under(e.from, 'workers') && e.to !== own(e.from) && e.to !== 'src/core/errors/error-transfer.ts')).toEqual([]);
  });

  it('keeps services away from the web-worker entry files, and the page side (client) away from the engine', () => {
    expect(offenders((e) => under(e.from, 'src/services') && under(e.to, 'workers'))).toEqual([]);
    expect(offenders((e) => under(e.from, 'src/client') && under(e.to, 'src/engine'))).toEqual([]);
  });

  it('lets the CLI (src/node) import only core, the engine and the sandbox service, never the page side or web workers', () => {
    // services/sandbox is the one service Node runs too: its Pyodide grader, in a worker thread (src/node/sandbox), so
    // that `baton eval` and the reward server grade code exactly as the Evaluate page does.
    const allowed = ['src/node', 'src/core', 'src/engine', 'src/services/sandbox'];
    expect(offenders((e) => under(e.from, 'src/node') && !under(e.to, ...allowed))).toEqual([]);
  });

  it('imports a module of src/ only for its bindings, save the error transfer, which registers itself on import', () => {
    // vite.config.ts (sourcesWithoutSideEffects) tells the bundler that importing any other module of src/ does
    // nothing but define its exports: a bare import of one would be dropped from the build without a word.
    const bad = bare.filter((b) => /\.(ts|svelte)$/.test(b.to) && b.to !== 'src/core/errors/error-transfer.ts').map((b) => `${b.from} -> ${b.to}`);
    expect(bad).toEqual([]);
  });

  it('has no circle between modules, nor between folders at any depth (one reaching, through its imports, one that reaches it back)', () => {
    expect({ modules: circles(moduleOf), folders: circles(folderOf) }).toEqual({ modules: [], folders: [] });
  });

  it('reaches every folder from outside through its index.ts', () => {
    const bad = offenders(
      (e) =>
        moduleOf(e.from) !== moduleOf(e.to) &&
        /^src\/.*\.(ts|svelte)$/.test(e.to) &&
        moduleOf(e.to) !== e.to &&
        !e.to.endsWith('/index.ts') &&
        !isServiceApi(e.to) &&
        !BY_PATH.has(e.to),
    );
    expect(bad).toEqual([]);
  });
});
