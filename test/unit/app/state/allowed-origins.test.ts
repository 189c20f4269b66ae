import { expect, test } from 'vitest';
import { chosenUrls, connectOrigin, connectSrcDirective, extraOrigins, missingOrigins, unallowableUrls } from '../../../../src/app/state/allowed-origins.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';

const FIXED =
  "connect-src 'self' https://api.openai.com https://api.anthropic.com https://generativelanguage.googleapis.com https://openrouter.ai" +
  ' https://huggingface.co https://*.huggingface.co https://*.hf.co https://raw.githubusercontent.com http://localhost:* http://127.0.0.1:*';

const worker = (id: string, baseUrl?: string): WorkerSpec => ({ id, provider: 'openai-compatible', model: 'm', ...(baseUrl ? { baseUrl } : {}) });

test('an http(s) URL becomes its origin: lower-cased, default port dropped, path, query and credentials gone', () => {
  expect(connectOrigin('https://My-vLLM.Example.org/v1')).toBe('https://my-vllm.example.org');
  expect(connectOrigin('  http://192.168.1.20:8000/v1?x=1#y ')).toBe('http://192.168.1.20:8000');
  expect(connectOrigin('https://user:pw@gpu.example.org:443/v1')).toBe('https://gpu.example.org');
  expect(connectOrigin('http://gpu.example.org:80')).toBe('http://gpu.example.org');
  expect(connectOrigin('https://bücher.example/v1')).toBe('https://xn--bcher-kva.example');
});

test('nothing that could widen or inject into the policy is an origin', () => {
  for (const url of [
    'https://*.example.org/v1',
    '*',
    'https:',
    'https://a.example.org;script-src *',
    'https://a.example.org; script-src *',
    "https://a.example.org'unsafe-inline'",
    'https://a.example.org,b.example.org',
    'ws://gpu.example.org',
    'javascript:alert(1)',
    'data:text/plain,x',
    'file:///etc/passwd',
    'http://[::1]:8000/v1',
    'http://my_box:8000/v1',
    '/v1',
    '',
  ]) {
    expect(connectOrigin(url), url).toBeUndefined();
  }
});

test('the URLs chosen: pool base URLs, a remote Conductor, an engine model and adapter given by URL', () => {
  const pool = [worker('a', 'https://a.example.org/v1'), worker('b'), { ...worker('c'), provider: 'simulated' as const }];
  expect(chosenUrls(pool, { kind: 'remote-endpoint', baseUrl: 'https://c.example.org/v1', model: 'x' })).toEqual([
    'https://a.example.org/v1',
    'https://c.example.org/v1',
  ]);
  expect(
    chosenUrls(pool, {
      kind: 'engine-model',
      model: { source: { from: 'url', url: 'https://m.example.org/model/' }, weights: 'f32', adapter: { from: 'url', url: 'https://l.example.org/lora/' } },
    }),
  ).toEqual(['https://a.example.org/v1', 'https://m.example.org/model/', 'https://l.example.org/lora/']);
  expect(chosenUrls(pool, { kind: 'engine-model', model: { source: { from: 'hub', repo: 'o/r' }, weights: 'int4' } })).toEqual(['https://a.example.org/v1']);
  expect(chosenUrls([], { kind: 'pool-worker', workerId: 'a' })).toEqual([]);
  // An engine worker's model and adapter named by URL are downloaded in the tab; Hub ids and 'demo' need nothing new.
  const local: WorkerSpec[] = [
    { id: 'e', provider: 'engine', model: 'https://m.example.org/w/', adapter: 'https://l.example.org/a/' },
    { id: 'd', provider: 'engine', model: 'demo', adapter: 'trained:run' },
    { id: 'h', provider: 'engine', model: 'o/r' },
  ];
  expect(chosenUrls(local, { kind: 'random-routing' })).toEqual(['https://m.example.org/w/', 'https://l.example.org/a/']);
});

test('extra origins: valid ones the fixed hosts do not already allow, once each, sorted', () => {
  expect(
    extraOrigins([
      'https://z.example.org/v1',
      'https://a.example.org/v1',
      'https://a.example.org/other',
      'https://openrouter.ai/api/v1', // fixed
      'http://localhost:11434/v1', // fixed, any port
      'http://127.0.0.1:8000/v1', // fixed, any port
      'https://cdn-lfs.huggingface.co/x', // fixed wildcard
      'https://api.openai.com:8443/v1', // not the fixed default port
      'https://huggingface.co.evil.example/x', // not a subdomain of the fixed host
      'https://localhost:8443', // https, where the fixed source is http
      'http://127.0.0.2:9000/v1',
      'https://*.example.org',
    ]),
  ).toEqual([
    'http://127.0.0.2:9000',
    'https://a.example.org',
    'https://api.openai.com:8443',
    'https://huggingface.co.evil.example',
    'https://localhost:8443',
    'https://z.example.org',
  ]);
});

test('missing origins are those the policy in force lacks; unallowable URLs are named apart', () => {
  const urls = ['https://a.example.org/v1', 'https://b.example.org/v1', 'http://[::1]:8000/v1', 'https://api.openai.com/v1'];
  expect(missingOrigins(urls, ['https://a.example.org'])).toEqual(['https://b.example.org']);
  expect(missingOrigins(urls, ['https://a.example.org', 'https://b.example.org'])).toEqual([]);
  expect(unallowableUrls(urls)).toEqual(['http://[::1]:8000/v1']);
});

test('the connect-src directive is exact, and an origin that is not one is dropped even here', () => {
  expect(connectSrcDirective([])).toBe(FIXED);
  expect(connectSrcDirective(['http://127.0.0.2:9000', 'https://my-vllm.example.org'])).toBe(`${FIXED} http://127.0.0.2:9000 https://my-vllm.example.org`);
  expect(connectSrcDirective(['https://ok.example.org', 'https://x.example.org; script-src *', 'https://*.example.org', 'https://ok.example.org/v1'])).toBe(
    `${FIXED} https://ok.example.org`,
  );
  expect(connectSrcDirective([], ['ws://localhost:*'])).toBe(`${FIXED} ws://localhost:*`);
});
