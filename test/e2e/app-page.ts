/**
 * Opens the served app in a fresh browser with every request outside it refused (so "offline" is real),
 * and records console errors and Content-Security-Policy violations for the test to assert on.
 */
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { launchBrowser, type BrowserSession } from '../support/browser.ts';

/** expect.poll's budget: generous, since the 2 cores are shared with everything else a run starts. */
export const POLL = { timeout: 15_000 };

export interface AppPage {
  page: Page;
  session: BrowserSession;
  url: string;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** CSP violations the page reported ("directive: blocked URI"). */
  cspViolations(): Promise<string[]>;
}

export interface OpenAppOptions {
  viewport?: { width: number; height: number };
  hash?: string;
  /** Other origins the page may reach (a fake provider server). */
  allow?: string[];
  /** Chromium's flags, when not CHROMIUM_FLAGS. */
  browserArgs?: readonly string[];
  /** Runs first, on a page of the app's origin that is not the app (its icon), e.g. to leave what an older Baton stored. */
  prepare?: (page: Page) => Promise<void>;
}

export async function openApp({ viewport, hash = '#/ask', allow = [], browserArgs, prepare }: OpenAppOptions = {}): Promise<AppPage> {
  const url = inject('appUrl');
  const session = await launchBrowser(viewport, browserArgs);
  const reachable = [url, ...allow];
  await session.context.route('**/*', (route) =>
    reachable.some((origin) => route.request().url().startsWith(origin)) ? route.continue() : route.abort('internetdisconnected'),
  );
  await session.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
    );
  });
  const page = session.context.pages()[0] ?? (await session.context.newPage());
  if (prepare) {
    // A file of the app's origin, not the app (whose server answers any unknown path with it, and which opens the database at once).
    await page.goto(`${url}/favicon.svg`);
    await prepare(page);
  }
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}/${hash}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return {
    page,
    session,
    url,
    errors,
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp.slice()),
  };
}

/** A worker added on the Workers page the way a user does: a preset, then its base URL and price edited. */
export interface WorkerEntry {
  /** The preset's name in "Add a worker" (e.g. "GPT-5", "Claude Sonnet", "Local vLLM"). */
  preset: string;
  baseUrl?: string;
  /** $ per million tokens. */
  price?: { input: number; output: number };
}

/** Replaces the pool with these workers, in order (so worker i is Model id i); leaves the Workers page open. */
export async function setPool(app: AppPage, workers: WorkerEntry[]): Promise<void> {
  const { page } = app;
  await page.goto(`${app.url}/#/workers`);
  const rows = page.getByTestId('worker-row');
  while ((await rows.count()) > 0) await rows.first().getByRole('button', { name: 'Remove' }).click();
  for (const [i, w] of workers.entries()) {
    await page.getByLabel('Add a worker').selectOption({ label: w.preset });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const row = rows.nth(i);
    await row.getByRole('button', { name: 'Edit' }).click();
    const fill = async (label: string, value: string) => {
      await row.getByLabel(label).fill(value);
      await row.getByLabel(label).press('Tab');
    };
    if (w.baseUrl !== undefined) await fill('Base URL', w.baseUrl);
    if (w.price) {
      await fill('$ / M input', String(w.price.input));
      await fill('$ / M output', String(w.price.output));
    }
    await row.getByRole('button', { name: 'Edit' }).click();
  }
}

/** Types a key into its slot's field on the Workers page and saves it, as a user pastes one. */
export async function saveKey(page: Page, slot: string, key: string): Promise<void> {
  await page.getByLabel(`Key for ${slot}`).fill(key);
  await page.getByLabel(`Key for ${slot}`).locator('xpath=..').getByRole('button', { name: 'Save' }).click();
  await page.getByLabel(`Key for ${slot}`).waitFor({ state: 'detached' });
}

/** Chooses a pool worker as the Conductor on the Conductor page. */
export async function useWorkerConductor(page: Page, workerLabel: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Conductor' }).click();
  const option = page.locator('label', { has: page.getByRole('radio', { name: /A pool worker, prompted as Conductor/ }) });
  await option.getByRole('combobox').selectOption({ label: workerLabel });
  await page.getByRole('radio', { name: /A pool worker, prompted as Conductor/ }).check();
}

/** The app with one worker, a local vLLM at `serverUrl`, which also plays the Conductor. */
export async function openAppWithOneWorker(serverUrl: string): Promise<AppPage> {
  const app = await openApp({ allow: [serverUrl] });
  await setPool(app, [{ preset: 'Local vLLM', baseUrl: `${serverUrl}/v1` }]);
  await useWorkerConductor(app.page, 'vLLM');
  return app;
}

/** Asks a question in a new conversation on the Ask page (so its turn is the only one shown) and presses Run. */
export async function ask(app: AppPage, question: string, gold = ''): Promise<void> {
  const { page } = app;
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Ask' }).click();
  await page.getByRole('heading', { name: 'Ask', level: 1 }).waitFor();
  await page.keyboard.press('Control+k');
  await expect.poll(() => page.getByTestId('turn').count(), POLL).toBe(0);
  await page.getByLabel('Question', { exact: true }).fill(question);
  if (gold !== '') await setGold(page, gold);
  await page.getByRole('button', { name: 'Run' }).click();
}

/** Opens the composer's Options, where the grading fields are, and types the gold answer (and its kind). */
export async function setGold(page: Page, gold: string, kind?: string): Promise<void> {
  const options = page.getByRole('button', { name: /^Options/ });
  if ((await options.getAttribute('aria-expanded')) !== 'true') await options.click();
  await page.getByLabel('Gold answer').fill(gold);
  if (kind !== undefined) await page.getByLabel('Kind').selectOption(kind);
}

/** The Episodes page's "Export JSONL" file, as text. */
export async function exportEpisodes(app: AppPage): Promise<string> {
  const { page } = app;
  await page.goto(`${app.url}/#/episodes`);
  await page.getByTestId('episode-stats').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
  let text = '';
  for await (const chunk of await download.createReadStream()) text += chunk;
  return text;
}

/** An export's episode lines, without the conversation lines that follow them. */
export function episodeLines(exported: string): string[] {
  return exported
    .trim()
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('{"type":"conversation"'));
}

/** Whether the page scrolls sideways (content wider than the window). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** Picks a file for "Import JSONL" on the Episodes page and returns the import's report, as the page words it. */
export async function importEpisodes(app: AppPage, name: string, content: string | Buffer): Promise<string> {
  const { page } = app;
  await page.goto(`${app.url}/#/episodes`);
  await page.getByTestId('episode-stats').waitFor();
  const report = page.getByTestId('import-report');
  const previous = (await report.count()) > 0 ? await report.textContent() : null;
  await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(content) });
  await page.waitForFunction(
    (old) => {
      const now = document.querySelector('[data-testid=import-report]')?.textContent ?? null;
      return now !== null && now !== old;
    },
    previous,
    { timeout: POLL.timeout },
  );
  return (await report.textContent()) ?? '';
}

/**
 * Every episode the app has stored in its IndexedDB (database 'baton', store 'episodes'), read in the page;
 * none before the app has made its database (and none made here, which would stall the app's own upgrade).
 */
export function storedEpisodes<T>(page: Page): Promise<T[]> {
  return page.evaluate(
    () =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('baton');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => (open.error?.name === 'AbortError' ? resolve([]) : reject(open.error));
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('episodes').objectStore('episodes').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result as T[]);
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}
