/**
 * The Train page's charts in light and in dark: uPlot draws on a canvas in the colours it is handed, so the
 * charts of a paused run (its checkpoint put in the trainer's database before the app opens) are read back
 * pixel by pixel against the card behind them: the axis values must be readable (contrast 4.5 or more, as
 * WCAG asks of text) and the lines stand out (3 or more, as it asks of graphics), in both themes.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, expect, test } from 'vitest';
import type { GrpoStepMetrics } from '../../src/core/rl/index.ts';
import { DEFAULT_TRAINING } from '../../src/services/trainer/api.ts';
import { openApp, POLL, type AppPage } from './app-page.ts';

const OUT = join(import.meta.dirname, '__screenshots__');

let app: AppPage | undefined;
beforeAll(() => mkdir(OUT, { recursive: true }));
afterEach(() => app?.session.close());

const metrics: GrpoStepMetrics[] = [1, 2, 3].map((step) => ({
  step,
  questions: 2,
  completions: 4,
  excluded: 0,
  rewardMean: 0.4 + step / 10,
  rewardStd: 0.2,
  accuracy: step / 4,
  formatRate: 0.5 + step / 8,
  costUsd: 0.001 * step,
  conductorTokens: 40,
  workerTokens: 300,
  workflowLength: 2,
  workerChoices: [2, 2],
  kl: 0.01 * step,
  entropy: 1 - step / 10,
  gradNorm: 1 / step,
  spentUsd: 0.004 * step,
  timeMs: 20_000,
}));

/** The trainer's database (services/trainer/training-db.ts) holding a run paused after step 3. */
async function seedPausedRun(page: Page): Promise<void> {
  const run = { id: 'current', runId: 'r1', config: { ...DEFAULT_TRAINING, pool: [] }, status: 'paused', startedAt: '2026-01-01T00:00:00.000Z' };
  const checkpoint = { runId: 'r1', step: 3, seed: 0, state: {}, metrics };
  await page.evaluate(
    ([run, checkpoint]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('baton-training', 1);
        open.onupgradeneeded = () => {
          open.result.createObjectStore('runs', { keyPath: 'id' });
          open.result.createObjectStore('checkpoints', { keyPath: 'runId' });
        };
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['runs', 'checkpoints'], 'readwrite');
          tx.objectStore('runs').put(run);
          tx.objectStore('checkpoints').put(checkpoint);
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
    [run, checkpoint] as const,
  );
}

/**
 * The best contrast against the chart's card of what is drawn left of the plot (the y axis's values, a few
 * pixels kept clear of the points on its edge) and of the coloured pixels in it (the lines, not the grey grid),
 * each pixel laid over the card as the page shows it.
 */
function contrasts(page: Page, chart: string): Promise<{ axis: number; lines: number }> {
  return page.getByTestId(`chart-${chart}`).evaluate((figure) => {
    const rgb = (css: string) =>
      css
        .match(/\d+(\.\d+)?/g)!
        .slice(0, 3)
        .map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const back = rgb(getComputedStyle(figure).backgroundColor);
    const backL = luminance(back);
    const canvas = figure.querySelector('canvas')!;
    const box = canvas.getBoundingClientRect();
    const scale = canvas.width / box.width;
    // uPlot's .u-over lies exactly over the plot.
    const over = figure.querySelector('.u-over')!.getBoundingClientRect();
    const plot = {
      left: (over.left - box.left) * scale,
      top: (over.top - box.top) * scale,
      right: (over.right - box.left) * scale,
      bottom: (over.bottom - box.top) * scale,
    };
    const { data, width, height } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const best = { axis: 1, lines: 1 };
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const a = data[i + 3] / 255;
        if (a === 0) continue;
        const shown = [0, 1, 2].map((c) => data[i + c] * a + back[c] * (1 - a));
        const l = luminance(shown);
        const ratio = (Math.max(l, backL) + 0.05) / (Math.min(l, backL) + 0.05);
        const inRows = y >= plot.top && y < plot.bottom;
        if (inRows && x < plot.left - 4 * scale) best.axis = Math.max(best.axis, ratio);
        const coloured = Math.max(...shown) - Math.min(...shown) > 60;
        if (inRows && x >= plot.left && x < plot.right && coloured) best.lines = Math.max(best.lines, ratio);
      }
    return best;
  });
}

test('the charts are readable in light and in dark, and follow a switch between them', async () => {
  app = await openApp({ hash: '#/train', prepare: seedPausedRun });
  const { page } = app;
  await expect.poll(() => page.getByTestId('train-status').textContent(), POLL).toBe('Paused');
  const charts = ['reward', 'accuracy', 'format', 'dollars', 'kl-entropy', 'grad-norm'];
  for (const chart of charts) await page.getByTestId(`chart-${chart}`).locator('canvas').waitFor();

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const chart of charts) {
      await expect.poll(async () => (await contrasts(page, chart)).axis, POLL).toBeGreaterThanOrEqual(4.5);
      expect((await contrasts(page, chart)).lines).toBeGreaterThanOrEqual(3);
    }
    await page.locator('.charts').screenshot({ path: join(OUT, `train-charts-${scheme}.png`) });
  }
  // The toggle's choice over the system's dark: drawn again in light colours (the dark ones fade on a light card).
  await page.getByTestId('theme-toggle').click();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  await expect.poll(async () => (await contrasts(page, 'reward')).axis, POLL).toBeGreaterThanOrEqual(4.5);
  expect(app.errors).toEqual([]);
});
