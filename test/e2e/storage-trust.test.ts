/**
 * What users trust the app to keep, in Chromium with real localStorage: settings edited in two tabs merge
 * instead of overwriting each other.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import { openApp, POLL, type AppPage } from './app-page.ts';

let app: AppPage | undefined;
afterEach(() => app?.session.close());

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
