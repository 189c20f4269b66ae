/**
 * Opens the served app in a fresh browser with every request outside it refused (so "offline" is real),
 * and records console errors and Content-Security-Policy violations for the test to assert on.
 */
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
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
}

export async function openApp({ viewport, hash = '#/ask', allow = [] }: OpenAppOptions = {}): Promise<AppPage> {
  const url = inject('appUrl');
  const session = await launchBrowser(viewport);
  const reachable = [url, ...allow];
  await session.context.route('**/*', (route) =>
    reachable.some((origin) => route.request().url().startsWith(origin)) ? route.continue() : route.abort('internetdisconnected'),
  );
  await session.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`));
  });
  const page = session.context.pages()[0] ?? (await session.context.newPage());
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
