/**
 * What users trust the app to keep, in Chromium with real localStorage, sessionStorage and IndexedDB:
 * settings edited in two tabs merge instead of overwriting each other; the app asks the browser for
 * persistent storage once there is something to keep and says whether it was granted; nothing deletes an
 * episode or a key without asking first; a key kept for this tab only never reaches IndexedDB, survives a
 * reload and is absent from another tab, where a stored key is present; and the runs use it.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { openApp, POLL, saveKey, setPool, type AppPage } from './app-page.ts';

const TAB_KEY = 'sk-tab-only-key-7777';
const STORED_KEY = 'sk-ant-stored-key-8888';

let server: FakeProviderServer;
let app: AppPage | undefined;
beforeAll(async () => {
  server = await startFakeProviderServer({ acceptKeys: [TAB_KEY, STORED_KEY] });
});
afterEach(async () => {
  await app?.session.close();
  server.reset();
});
afterAll(() => server?.close());

/** Every record of the key database, as stored. */
const storedKeyRecords = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('baton-keys');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('keys').objectStore('keys').getAll();
          all.onsuccess = () => resolve(all.result);
          all.onerror = () => reject(all.error);
        };
      }),
  );

async function setNumber(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label).fill(value);
  await page.getByLabel(label).press('Tab');
}

test('settings edited in two tabs merge: neither tab puts back what the other changed', async () => {
  app = await openApp({ hash: '#/settings' });
  const first = app.page;
  const second = await app.session.context.newPage();
  await second.goto(`${app.url}/#/settings`);
  await second.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

  await setNumber(second, 'Budget per run ($)', '2');
  await expect.poll(() => first.getByLabel('Budget per run ($)').inputValue(), POLL).toBe('2');
  await setNumber(first, 'Recursion rounds', '1');
  await expect.poll(() => second.getByLabel('Recursion rounds').inputValue(), POLL).toBe('1');
  await setNumber(second, 'Max steps per workflow', '4');

  const stored = JSON.parse((await first.evaluate(() => localStorage.getItem('baton.settings')))!);
  expect(stored).toMatchObject({ maxUsdPerRun: 2, recursion: 1, maxSteps: 4 });
  await first.reload();
  expect(await first.getByLabel('Budget per run ($)').inputValue()).toBe('2');
  expect(await first.getByLabel('Max steps per workflow').inputValue()).toBe('4');
});

test('after the first run the app has asked for persistent storage and says it was refused; granted, it says so', async () => {
  app = await openApp({ hash: '#/settings' });
  const { page } = app;
  const note = page.getByTestId('storage-note');
  await expect.poll(() => note.textContent(), POLL).toMatch(/^\s*Storage is not persistent: it may clear your episodes and keys/);

  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Episodes' }).click();
  // Headless Chromium refuses persistence to a site it has no engagement with.
  await expect.poll(() => note.textContent(), POLL).toMatch(/^\s*The browser did not grant persistent storage: .*Export the episodes you want to keep/s);

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Ask the browser to keep it' }).waitFor();
  // The browser grants it (as for a bookmarked or installed site): the page reads the answer again.
  const cdp = await app.session.context.newCDPSession(page);
  await cdp.send('Browser.grantPermissions', { origin: app.url, permissions: ['durableStorage'] });
  await page.getByRole('button', { name: 'Ask the browser to keep it' }).click();
  await expect.poll(() => note.textContent(), POLL).toMatch(/^\s*Storage is persistent: this browser will not clear your episodes and keys on its own\./);
  expect(await page.evaluate(() => navigator.storage.persisted())).toBe(true);
  expect(await page.getByRole('button', { name: 'Ask the browser to keep it' }).count()).toBe(0);
});

test('deleting an episode or removing a key asks first; Cancel keeps it', async () => {
  app = await openApp();
  const { page } = app;
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Episodes' }).click();
  const list = page.getByTestId('episode-list');
  await list.getByRole('link').first().waitFor();
  await list.getByRole('button', { name: 'Delete episode' }).click();
  expect(await list.getByRole('group').getAttribute('aria-label')).toBe('Delete this episode from this browser?');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
  await list.getByRole('button', { name: 'Cancel' }).click();
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete episode');
  await page.reload();
  await list.getByRole('link').first().waitFor();
  await list.getByRole('button', { name: 'Delete episode' }).click();
  await list.getByRole('button', { name: 'Delete it' }).click();
  await expect.poll(() => list.getByRole('link').count(), POLL).toBe(0);

  await setPool(app, [{ preset: 'GPT-5' }]);
  await saveKey(page, 'openai@https://api.openai.com', 'sk-remove-me-1234');
  const row = page.getByRole('listitem').filter({ hasText: '••••1234' });
  await row.getByRole('button', { name: 'Remove' }).click();
  expect(await row.getByRole('group').getAttribute('aria-label')).toBe('Remove this key? It is kept nowhere else: you would paste it again.');
  await row.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedKeyRecords(page)).toHaveLength(1);
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Remove it' }).click();
  await expect.poll(() => storedKeyRecords(page), POLL).toEqual([]);
});

test('a key kept for this tab only is never in IndexedDB, survives a reload, is absent from a new tab, and runs use it', async () => {
  app = await openApp({ allow: [server.url] });
  const { page } = app;
  await setPool(app, [
    { preset: 'GPT-5', baseUrl: `${server.url}/v1` },
    { preset: 'Claude Sonnet', baseUrl: `${server.url}/v1` },
  ]);
  const [openai, anthropic] = [`openai@${server.url}`, `anthropic@${server.url}`];
  await saveKey(page, anthropic, STORED_KEY);
  await page.getByLabel('Keep new keys for this tab only (not stored)').check();
  await saveKey(page, openai, TAB_KEY);
  const tabKeyRow = page.getByRole('listitem').filter({ hasText: '••••7777' });
  expect(await tabKeyRow.textContent()).toContain('••••7777 · this tab only');

  const records = await storedKeyRecords(page);
  expect(records).toEqual([expect.objectContaining({ slot: anthropic })]);
  expect(JSON.stringify(records)).not.toContain(TAB_KEY);
  await page.reload();
  await tabKeyRow.waitFor();

  server.script({ text: 'One step.\nmodel_id = [0]\nsubtasks = ["Answer."]\naccess_list = [[]]' }, { text: 'It is <answer>4</answer>.' });
  await page.getByRole('link', { name: 'Conductor' }).click();
  await page
    .locator('label', { has: page.getByRole('radio', { name: /A pool worker, prompted as Conductor/ }) })
    .getByRole('combobox')
    .selectOption({ label: 'GPT-5' });
  await page.getByRole('radio', { name: /A pool worker, prompted as Conductor/ }).check();
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
  const posts = server.requests.filter((r) => r.method === 'POST');
  expect(posts.map((r) => r.headers.authorization)).toEqual([`Bearer ${TAB_KEY}`, `Bearer ${TAB_KEY}`]);

  // Another tab of the same browser shares IndexedDB, not this tab's session: the stored key only.
  const other = await app.session.context.newPage();
  await other.goto(`${app.url}/#/workers`);
  await other.getByLabel(`Key for ${openai}`).waitFor();
  expect(await other.getByRole('listitem').filter({ hasText: '••••8888' }).count()).toBe(1);
  expect(await other.getByRole('listitem').filter({ hasText: '••••7777' }).count()).toBe(0);
});
