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

/** The SSE data payloads of a raw stream, split on blank lines of either ending. */
async function ssePayloads(path: string, body: object, headers: Record<string, string> = {}): Promise<{ raw: string; data: string[] }> {
  const reply = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const raw = await reply.text();
  const data = raw
    .split(/\r?\n\r?\n/)
    .filter((e) => e !== '')
    .map((e) => /(?:^|\n)data: (.*)/.exec(e.replace(/\r/g, ''))![1]);
  return { raw, data };
}

it('streams OpenAI chunks as the API does: usage null on each chunk, then choices [] with the usage, then [DONE]', async () => {
  server.script({ text: 'a b', usage: { input: 5, output: 2, cached: 1 } });
  const asked = await ssePayloads('/v1/chat/completions', { model: 'm', stream: true, stream_options: { include_usage: true } });
  const chunks = asked.data.slice(0, -1).map((d) => JSON.parse(d));
  expect(asked.data.at(-1)).toBe('[DONE]');
  expect(chunks.slice(0, -1).every((c) => c.usage === null && c.choices.length === 1 && c.id.startsWith('chatcmpl-'))).toBe(true);
  expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 1 } } });
  server.script({ text: 'a b' });
  const unasked = await ssePayloads('/v1/chat/completions', { model: 'm', stream: true });
  expect(
    unasked.data
      .slice(0, -1)
      .map((d) => JSON.parse(d))
      .some((c) => 'usage' in c),
  ).toBe(false);
});

it('sends Anthropic ping events and Gemini lines ending in CRLF', async () => {
  const anthropic = await ssePayloads('/v1/messages', { model: 'claude-x', stream: true, max_tokens: 5, messages: [] });
  expect(anthropic.raw).toContain('event: ping\ndata: {"type":"ping"}\n\n');
  expect(anthropic.data.map((d) => JSON.parse(d).type)).toEqual([
    'message_start',
    'ping',
    'content_block_start',
    'ping',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
  const gemini = await ssePayloads('/v1beta/models/gemini-x:streamGenerateContent?alt=sse', { contents: [] });
  expect(gemini.raw).toMatch(/^data: \{.*\}\r\n\r\n$/s);
  expect(JSON.parse(gemini.data.at(-1)!).usageMetadata).toMatchObject({ promptTokenCount: 10, candidatesTokenCount: 1 });
});
