/**
 * Network workers from the browser: API keys sent only where the Workers page says, and never shown,
 * exported or echoed back, even when the server repeats a refused key in its error; and a pool worker
 * prompted as the Conductor. A fake OpenAI-compatible server stands in for the provider.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { openApp, setGold, type AppPage } from './app-page.ts';

const SECRET = 'sk-e2e-secret-key-7x9q';
let server: FakeProviderServer;
let app: AppPage | undefined;

beforeAll(async () => {
  // The server refuses this key and echoes it back in the error body, as real providers partly do.
  server = await startFakeProviderServer({ acceptKeys: ['some-other-key'] });
});
afterAll(() => server?.close());
afterEach(async () => {
  await app?.session.close();
  server.reset();
});

async function poolOfOneFakeWorker(a: AppPage): Promise<void> {
  const { page } = a;
  await page.goto(`${a.url}/#/workers`);
  const rows = page.getByTestId('worker-row');
  while ((await rows.count()) > 0) await rows.first().getByRole('button', { name: 'Remove' }).click();
  await page.getByLabel('Add a worker').selectOption({ label: 'Local vLLM' });
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await rows.first().getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Base URL').fill(`${server.url}/v1`);
  await page.getByLabel('Base URL').press('Tab');
}

/** The app with the fake worker's key saved under a passphrase, reloaded: the key is locked. */
async function lockedKeyAfterReload(): Promise<AppPage> {
  app = await openApp({ allow: [server.url] });
  const { page } = app;
  await poolOfOneFakeWorker(app);
  await page.getByLabel('Passphrase for new keys').fill('tulip lantern');
  await page.getByLabel(`Key for openai-compatible@${server.url}`).fill(SECRET);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('••••7x9q · encrypted').waitFor();
  await page.reload();
  return app;
}

test('a stored key goes to its server only, and a refused key never shows up in the page, the episode or its export', async () => {
  app = await openApp({ allow: [server.url] });
  const { page } = app;
  await poolOfOneFakeWorker(app);
  const slot = `openai-compatible@${server.url}`;
  expect(await page.getByText(`sent to ${server.url}`).count()).toBe(1);
  await page.getByLabel(`Key for ${slot}`).fill(SECRET);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(`••••${SECRET.slice(-4)}`).waitFor();

  // "Test" makes one tiny call and reports the error by its code, without the echoed key.
  await page.getByTestId('worker-row').first().getByRole('button', { name: 'Test' }).click();
  const result = page.getByTestId('worker-row').first().getByRole('status');
  await result.waitFor();
  expect(await result.textContent()).toMatch(/^provider\/auth: /);
  expect(await result.textContent()).not.toContain(SECRET);

  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });

  const calls = server.requests.filter((r) => r.method === 'POST');
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) expect(call.headers.authorization).toBe(`Bearer ${SECRET}`);
  await page.locator('details.steps > summary').click();
  expect(await page.getByTestId('step-details').first().textContent()).toMatch(/key|401|auth/i);

  await page.getByRole('link', { name: 'Episodes' }).click();
  await page.getByTestId('episode-list').getByRole('link').first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
  let exported = '';
  for await (const chunk of await download.createReadStream()) exported += chunk;
  expect(exported).toContain(server.url);
  expect(exported).not.toContain(SECRET);
  await page.getByTestId('episode-list').getByRole('link').first().click();
  await page.getByTestId('episode-detail').waitFor();
  expect(await page.content()).not.toContain(SECRET);
  expect(app.errors.join('\n')).not.toContain(SECRET);
  expect(page.url()).not.toContain(SECRET);
});

test('a key saved with a passphrase is locked after a reload until the passphrase is given', async () => {
  const { page } = await lockedKeyAfterReload();
  await page.getByRole('button', { name: 'Unlock keys' }).waitFor();
  await page.getByLabel('Passphrase', { exact: true }).fill('wrong');
  await page.getByRole('button', { name: 'Unlock keys' }).click();
  await page.getByRole('alert').filter({ hasText: 'Wrong passphrase' }).waitFor();
  await page.getByLabel('Passphrase', { exact: true }).fill('tulip lantern');
  await page.getByRole('button', { name: 'Unlock keys' }).click();
  await page.getByRole('button', { name: 'Unlock keys' }).waitFor({ state: 'detached' });
  expect(await page.content()).not.toContain(SECRET);
  await page.getByRole('button', { name: /Lock keys/ }).click();
  await page.getByRole('button', { name: 'Unlock keys' }).waitFor();
});

test('a run that needs a locked key asks for the passphrase on Ask, keeping the question, then runs with the key', async () => {
  const { page } = await lockedKeyAfterReload();
  await page.getByRole('link', { name: 'Ask' }).click();

  const locked = page.getByTestId('keys-locked');
  await locked.waitFor();
  const question = page.getByRole('textbox', { name: 'Question' });
  await question.fill('What is 2 + 2?');
  await page.getByRole('button', { name: 'Run' }).click();
  expect(await page.locator('#ask-problem').textContent()).toBe('Your stored keys are locked: enter their passphrase above to run.');
  // Nothing began: the question is still in the box, no conversation was made, nothing was sent.
  expect(await question.inputValue()).toBe('What is 2 + 2?');
  expect(await page.getByTestId('conversation-link').count()).toBe(0);
  expect(server.requests).toHaveLength(0);

  await locked.getByLabel('Passphrase', { exact: true }).fill('wrong');
  await locked.getByRole('button', { name: 'Unlock keys' }).click();
  await locked.getByRole('alert').filter({ hasText: 'Wrong passphrase' }).waitFor();
  await locked.getByLabel('Passphrase', { exact: true }).fill('tulip lantern');
  await locked.getByRole('button', { name: 'Unlock keys' }).click();
  await locked.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.headers.authorization)).toContain(`Bearer ${SECRET}`);
});

test('a pool worker prompted as Conductor plans over the network and its workflow runs', async () => {
  const open = await startFakeProviderServer();
  try {
    app = await openApp({ allow: [open.url] });
    const { page } = app;
    await page.goto(`${app.url}/#/workers`);
    const rows = page.getByTestId('worker-row');
    while ((await rows.count()) > 0) await rows.first().getByRole('button', { name: 'Remove' }).click();
    await page.getByLabel('Add a worker').selectOption({ label: 'Local vLLM' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await rows.first().getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Base URL').fill(`${open.url}/v1`);
    await page.getByLabel('Base URL').press('Tab');

    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Conductor' }).click();
    await page.getByRole('radio', { name: /A pool worker, prompted as Conductor/ }).check();

    open.script(
      { text: 'One step is enough.\nmodel_id = [0]\nsubtasks = ["Add the numbers."]\naccess_list = [[]]' },
      { text: 'Two and two make <answer>4</answer>.' },
    );
    await page.getByRole('link', { name: 'Ask' }).click();
    await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
    await page.getByLabel('Question', { exact: true }).fill('What is 2 + 2?');
    await setGold(page, '4');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('conductor-text').textContent()).toContain('model_id = [0]');
    expect(await page.getByTestId('graph-step').count()).toBe(1);
    expect(await page.getByTestId('grade').textContent()).toContain('correct');
    const posts = open.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(JSON.stringify(posts[0].body)).toContain('model_id');
    expect(JSON.stringify(posts[1].body)).toContain('Add the numbers.');
    expect(await app.cspViolations()).toEqual([]);
  } finally {
    await open.close();
  }
});
