/** The fake server answers a browser's CORS preflight, so the e2e tests can call it from a page. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';

let server: FakeProviderServer;
beforeAll(async () => {
  server = await startFakeProviderServer();
});
afterAll(() => server.close());

it('answers OPTIONS preflights and sends CORS headers on replies', async () => {
  const preflight = await fetch(`${server.url}/v1/messages`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:4173', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  expect(preflight.headers.get('access-control-allow-headers')).toBe('*');
  server.script({ status: 429, headers: { 'retry-after': '1' } });
  const reply = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm' }) });
  expect(reply.status).toBe(429);
  expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  expect(reply.headers.get('access-control-expose-headers')).toBe('*');
  expect(server.requests.map((r) => [r.method, r.path])).toEqual([
    ['OPTIONS', '/v1/messages'],
    ['POST', '/v1/chat/completions'],
  ]);
});
