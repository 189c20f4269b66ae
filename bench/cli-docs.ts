/**
 * docs/cli.md, the CLI reference, made from every `baton` command's own --help run in-process, so the page
 * says exactly what the CLI says. Commands come from `baton --help`'s list; a subcommand named in a usage
 * line (`baton export train-bundle`) gets a section of its own when its help differs from its command's.
 *
 *   npm run docs:cli        (rewrites docs/cli.md)
 *
 * test/unit/bench/cli-docs.test.ts fails, naming the commands, when docs/cli.md is stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../src/node/main.ts';

export const CLI_DOCS_PATH = resolve(import.meta.dirname, '../docs/cli.md');
export const REGENERATE = 'npm run docs:cli';

const HEADER = `# The \`baton\` CLI

\`npx baton <command>\` works right after \`npm ci\`: it runs the TypeScript sources through \`tsx\`, with no build
step. Errors are one line on stderr and a non-zero exit status; \`--debug\` adds the stack. API keys come from
the environment ([pools.md](pools.md#keys)), never from flags or files.

This page is generated from each command's own \`--help\` by \`${REGENERATE}\` (bench/cli-docs.ts); a unit test
fails when it is stale. Worked examples are in the [user's manual](README.md).
`;

/** What `baton <argv> --help` prints; a non-zero exit is an error (a help text must not fail). */
async function helpOf(argv: readonly string[]): Promise<string> {
  let out = '';
  const write = (t: string) => {
    out += t;
  };
  const status = await main([...argv, '--help'], { stdout: write, stderr: write, readStdin: async () => '', env: {}, cwd: process.cwd() });
  if (status !== 0) throw new Error(`baton ${argv.join(' ')} --help exited with ${status}:\n${out}`);
  return out.trimEnd();
}

/** The commands `baton --help` lists, in its order. */
const commandsIn = (usage: string) => [...usage.matchAll(/^ {2}([a-z][a-z0-9-]*) {2,}/gm)].map((m) => m[1]);

/** Words after `baton <command>` at the start of a help's usage lines: `trl|verl`, `train-bundle`, `init`, ... */
const subcommandsIn = (command: string, help: string) => [
  ...new Set([...help.matchAll(new RegExp(`^(?:usage:)? *baton ${command} ([a-z][a-z0-9|-]*)`, 'gm'))].flatMap((m) => m[1].split('|'))),
];

interface Section {
  /** `baton train`, `baton export train-bundle`. */
  title: string;
  help: string;
}

async function sections(): Promise<Section[]> {
  const all: Section[] = [{ title: 'baton', help: await helpOf([]) }];
  for (const command of commandsIn(all[0].help)) {
    const help = await helpOf([command]);
    all.push({ title: `baton ${command}`, help });
    for (const sub of subcommandsIn(command, help)) {
      const subHelp = await helpOf([command, sub]);
      if (subHelp !== help) all.push({ title: `baton ${command} ${sub}`, help: subHelp });
    }
  }
  return all;
}

const anchor = (title: string) => title.replace(/ /g, '-');

/** The whole of docs/cli.md. */
export async function renderCliDocs(): Promise<string> {
  const all = await sections();
  const index = all.slice(1).map((s) => `- [${s.title}](#${anchor(s.title)})`);
  const bodies = all.map((s) => `## ${s.title}\n\n\`\`\`text\n${s.help}\n\`\`\``);
  return `${HEADER}\n${index.join('\n')}\n\n${bodies.join('\n\n')}\n`;
}

/** The sections of a rendered page by title (`## baton train` -> its text); the header under ''. */
function sectionsOf(page: string): Map<string, string> {
  const parts = page.split(/^## /m);
  return new Map([['', parts[0]], ...parts.slice(1).map((p): [string, string] => [p.slice(0, p.indexOf('\n')), p])]);
}

/** What differs between the page on disk and a fresh render, one line per section; empty when none. */
export function staleSections(written: string, fresh: string): string[] {
  const before = sectionsOf(written);
  const after = sectionsOf(fresh);
  const name = (title: string) => (title === '' ? "the page's header" : `${title} --help`);
  const problems = [...after].flatMap(([title, text]) => {
    if (!before.has(title)) return [`${name(title)} is missing`];
    return before.get(title) === text ? [] : [`${name(title)} changed`];
  });
  problems.push(...[...before.keys()].filter((t) => !after.has(t)).map((t) => `${name(t)} is no longer a command`));
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fresh = await renderCliDocs();
  const old = await readFile(CLI_DOCS_PATH, 'utf8').catch(() => '');
  await writeFile(CLI_DOCS_PATH, fresh);
  const changed = old === '' ? ['new'] : staleSections(old, fresh);
  console.log(changed.length === 0 ? `${CLI_DOCS_PATH} was up to date` : `wrote ${CLI_DOCS_PATH}: ${changed.join('; ')}`);
}
