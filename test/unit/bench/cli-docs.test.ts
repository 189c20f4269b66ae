import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { CLI_DOCS_PATH, REGENERATE, renderCliDocs, staleSections } from '../../../bench/cli-docs.ts';

test("docs/cli.md says what every command's --help says", async () => {
  const written = await readFile(CLI_DOCS_PATH, 'utf8');
  const fresh = await renderCliDocs();
  expect(staleSections(written, fresh), `docs/cli.md is stale: run \`${REGENERATE}\``).toEqual([]);
  expect(written).toBe(fresh);
}, 60_000); // it loads every command, the engine and the AI SDK included

test('a stale page names the commands whose help changed, appeared or went', () => {
  const page = (...sections: string[]) => `# header\n\n${sections.map((s) => `## ${s}\n\n\`\`\`text\nhelp of ${s}\n\`\`\``).join('\n\n')}\n`;
  const written = page('baton', 'baton parse', 'baton old');
  const fresh = page('baton', 'baton parse', 'baton new').replace('help of baton parse', 'new help of baton parse');
  expect(staleSections(written, fresh)).toEqual(['baton parse --help changed', 'baton new --help is missing', 'baton old --help is no longer a command']);
  expect(staleSections(written, written)).toEqual([]);
});
