/**
 * Debian's Chromium, headless, through playwright-core: WebGPU on SwiftShader, a fresh profile per launch
 * (removed on close), nothing reaching the network but what a test serves. Used by test/e2e.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * No sandbox (Chromium will not start as root without it, as in a container or CI); WebGPU on SwiftShader, which
 * needs no GPU (Linux Chromium offers WebGPU only behind --enable-unsafe-webgpu); no first-run page, background
 * requests, component updates or sync, so nothing reaches the network but what a test serves. playwright-core adds
 * the headless switch and --user-data-dir itself.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/** `args` replaces CHROMIUM_FLAGS (e.g. without the WebGPU ones, to see the app where WebGPU is off). */
export async function launchBrowser(viewport = { width: 1280, height: 800 }, args: readonly string[] = CHROMIUM_FLAGS): Promise<BrowserSession> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'baton-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...args],
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
