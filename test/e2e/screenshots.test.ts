/**
 * Every page at a laptop and a phone size, saved under test/e2e/__screenshots__/ for a person to look at
 * (layout is judged by eye; the test asserts only what a machine can: no errors, no CSP violations, no
 * horizontal overflow on the phone).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openApp, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');
const PAGES = ['ask', 'workers', 'conductor', 'train', 'evaluate', 'episodes', 'settings'];
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

describe.each(SIZES)('pages at $name size', (size) => {
  let app: AppPage;
  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    app = await openApp({ viewport: { width: size.width, height: size.height } });
  });
  afterAll(() => app?.session.close());

  test.each(PAGES)('%s', async (name) => {
    await app.page.goto(`${app.url}/#/${name}`);
    const title = name[0].toUpperCase() + name.slice(1);
    await app.page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
    if (name === 'ask') {
      // The Ask page is worth seeing with a finished run on it.
      await app.page.getByRole('button', { name: 'Run' }).click();
      await app.page.getByTestId('episode-saved').waitFor({ timeout: 60_000 });
    }
    await app.page.waitForLoadState('networkidle');
    await app.page.screenshot({ path: join(OUT, `${name}-${size.name}.png`), fullPage: true });
    const overflow = await app.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(app.errors).toEqual([]);
    expect(await app.cspViolations()).toEqual([]);
  });
});

test('on a phone the nav collapses behind a Menu button', async () => {
  const app = await openApp({ viewport: { width: 390, height: 844 } });
  try {
    const { page } = app;
    const workers = page.getByRole('link', { name: 'Workers' });
    expect(await workers.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await workers.isVisible()).toBe(true);
    await page.screenshot({ path: join(OUT, 'nav-open-phone.png') });
    await workers.click();
    await page.getByRole('heading', { name: 'Workers', level: 1 }).waitFor();
    expect(await workers.isVisible()).toBe(false);
  } finally {
    await app.session.close();
  }
});
