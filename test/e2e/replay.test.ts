/** Replay workers: import recorded answers on the Workers page, add a model as a worker, ask a recorded question. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, POLL, setGold, type AppPage } from './app-page.ts';

const CSV = 'prompt,gpt-4-1106-preview,gpt-4-1106-preview_response\n"What is 12 + 30?",True,"Adding gives <answer>42</answer>."\n';

let app: AppPage;
beforeAll(async () => {
  app = await openApp({ hash: '#/workers' });
});
afterAll(() => app?.session.close());

test('a replay worker answers a recorded question with the recorded response', async () => {
  const { page } = app;
  const rows = page.getByTestId('worker-row');
  while ((await rows.count()) > 0) await rows.first().getByRole('button', { name: 'Remove' }).click();
  await page.getByLabel('Import RouteLLM CSV').setInputFiles({ name: 'gsm8k.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await page.getByTestId('replay-summary').waitFor();
  expect(await page.getByTestId('replay-summary').textContent()).toContain('1 recorded questions from gsm8k.csv');
  await page.getByRole('button', { name: 'Add as worker' }).click();
  expect(await rows.count()).toBe(1);

  await page.reload(); // the table and the pool are both stored
  await page.getByTestId('replay-summary').waitFor();
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
  await page.getByLabel('Question', { exact: true }).fill('What is 12 + 30?');
  await setGold(page, '42');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  await expect.poll(() => page.getByTestId('final-answer').textContent(), POLL).toContain('Adding gives');
  expect(await page.getByTestId('grade').textContent()).toContain('correct');
  expect(app.errors).toEqual([]);
});
