/** A call the page's policy refused says that a reload allows its origin, where the provider's words would blame the server. */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createWorkerModel } from '../../../../../src/core/providers/create-worker.ts';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import { blockedByPage, explainBlockedCall, workerUrls } from '../../../../../src/core/providers/index.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/types.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';

let server: FakeProviderServer;
/** An address nothing listens on: a call there fails before any answer, as one the browser refuses does. */
let closed: string;
beforeAll(async () => {
  server = await startFakeProviderServer();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(() => server.close());

const BLOCKED = (origin: string) =>
  `This page blocked the call to ${origin}: it connects only to the servers it was opened with, and this one was added since. ` +
  'Reload the page to allow it; your pool, settings and episodes are kept.';
const hi = { messages: [{ role: 'user' as const, content: 'hi' }] };

test("a refused call to a blocked origin says so, and is not retryable; other failures and other origins keep the provider's words", async () => {
  const spec: WorkerSpec = { id: 'v', provider: 'openai-compatible', model: 'llama3', baseUrl: `${closed}/v1` };
  // One attempt: a refused call in a browser (CORS) is never retried, where Node's network error would be.
  const plain = createWorkerModel(spec, { retry: { attempts: 1 } });
  const failed = (call: Promise<unknown>) => call.then(() => expect.unreachable('the call was answered')).catch((e: unknown) => e as BatonError);
  const refused = await failed(plain.call(hi));
  expect(refused.code).toBe('provider/network');

  const blocked = await failed(blockedByPage(plain, [closed]).call(hi));
  expect(blocked).toBeInstanceOf(BatonError);
  expect([blocked.code, blocked.message, blocked.isRetryable]).toEqual(['provider/network', BLOCKED(closed), false]);

  // Not blocked: the same worker, untouched.
  expect(blockedByPage(plain, ['http://127.0.0.3:9'])).toBe(plain);
  // Blocked, but the server answered: its own refusal is what happened.
  const answering = blockedByPage(createWorkerModel({ ...spec, baseUrl: `${server.url}/v1` }, {}), [server.url]);
  server.script({ status: 404 });
  await expect(answering.call(hi)).rejects.toMatchObject({ code: 'provider/unknown-model' });
  server.script({ text: 'Paris.' });
  expect((await answering.call(hi)).text).toBe('Paris.');
});

test('names every blocked origin among the URLs, and a failure that never tried the network keeps its words', () => {
  const cors = new BatonError({ code: 'provider/cors', message: 'The server at http://10.0.0.5:8000 could not be reached from this page (CORS).' });
  expect(explainBlockedCall(cors, ['http://10.0.0.5:8000/v1'], ['http://10.0.0.5:8000']).message).toBe(BLOCKED('http://10.0.0.5:8000'));
  expect(explainBlockedCall(cors, ['http://10.0.0.5:8000/v1', 'https://m.example.org/w'], ['http://10.0.0.5:8000', 'https://m.example.org']).message).toBe(
    'This page blocked the call to http://10.0.0.5:8000, https://m.example.org: it connects only to the servers it was opened with, and these ' +
      'were added since. Reload the page to allow them; your pool, settings and episodes are kept.',
  );
  expect(explainBlockedCall(cors, ['http://10.0.0.5:8000/v1'], ['http://10.0.0.6:8000'])).toBe(cors);
  const budget = new BatonError({ code: 'run/budget', message: 'Not made: it could pass the budget.' });
  expect(explainBlockedCall(budget, ['http://10.0.0.5:8000/v1'], ['http://10.0.0.5:8000'])).toBe(budget);
  // An engine worker reaches its model and adapter where URLs name them.
  expect(workerUrls({ id: 'e', provider: 'engine', model: 'https://m.example.org/w/', adapter: 'hub:o/r' })).toEqual(['https://m.example.org/w/']);
});
