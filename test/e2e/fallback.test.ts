/**
 * A fallback in Chromium: the worker a plan names is down (a server answering 503 to every request), so after its
 * retries its step runs on the worker it names as fallback, and the step says so.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer } from '../support/fake-provider-server.ts';
import { ask, openApp, setPool, useWorkerConductor, type AppPage } from './app-page.ts';

let down: FakeProviderServer;
let up: FakeProviderServer;
let app: AppPage | undefined;

beforeAll(async () => {
  down = await startFakeProviderServer({ fallback: { status: 503 } });
  up = await startFakeProviderServer();
});
afterAll(async () => {
  await app?.session.close();
  await Promise.all([down?.close(), up?.close()]);
});

test('a step whose provider is down runs on its fallback, and its details say so', async () => {
  app = await openApp({ allow: [down.url, up.url] });
  const { page } = app;
  // Model id 0 (Ollama's preset) is down; model id 1 (vLLM's) plans and takes over.
  await setPool(app, [
    { preset: 'Local Ollama', baseUrl: `${down.url}/v1` },
    { preset: 'Local vLLM', baseUrl: `${up.url}/v1` },
  ]);
  const first = page.getByTestId('worker-row').first();
  await first.getByRole('button', { name: 'Edit' }).click();
  await first.getByLabel('Fallback').selectOption({ label: 'vLLM' });
  await first.getByRole('button', { name: 'Edit' }).click();
  expect(await first.innerText()).toContain('falls back to vLLM');
  await useWorkerConductor(page, 'vLLM');

  up.script({ text: 'model_id = [0]\nsubtasks = ["Add the numbers."]\naccess_list = [[]]' }, { text: 'Two and two make <answer>4</answer>.' });
  await ask(app, 'What is 2 + 2?', '4');
  await page.getByTestId('episode-saved').waitFor({ timeout: 90_000 });

  expect(down.requests.filter((r) => r.method === 'POST').length).toBeGreaterThan(1);
  await page.getByText('Steps', { exact: true }).click(); // a turn's steps are folded until asked for
  const step = page.getByTestId('step-details').first();
  expect(await step.getByTestId('step-fallback').innerText()).toMatch(
    /^Fallback: Ollama failed \(.*server error \(503\).*, 5 attempts\), so vLLM, its fallback, took the step over\./,
  );
  expect(await step.innerText()).toContain('Two and two make');
  expect(await page.getByTestId('grade').innerText()).toContain('correct');
});
