// idb recognises requests by the global IDBRequest & co., which fake-indexeddb/auto installs.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, expect, test } from 'vitest';
import { KeyStore } from '../../../../src/client/keys/key-store.ts';

let store: KeyStore;
beforeEach(async () => {
  store = await KeyStore.open(new IDBFactory());
});

test('a plain key is stored, listed masked, read back and removed', async () => {
  await store.set('openai@https://api.openai.com', '  sk-abcdefgh1234  ');
  expect(await store.list()).toEqual([{ slot: 'openai@https://api.openai.com', masked: '••••1234', encrypted: false, addedAt: expect.any(String) }]);
  expect(await store.get('openai@https://api.openai.com')).toBe('sk-abcdefgh1234');
  await store.remove('openai@https://api.openai.com');
  expect(await store.get('openai@https://api.openai.com')).toBeUndefined();
  expect(await store.list()).toEqual([]);
});

test('an encrypted key needs its passphrase', async () => {
  await store.set('anthropic@https://api.anthropic.com', 'sk-ant-secret-9876', 'pass phrase');
  expect((await store.list())[0]).toMatchObject({ encrypted: true, masked: '••••9876' });
  await expect(store.get('anthropic@https://api.anthropic.com')).rejects.toMatchObject({ code: 'run/config' });
  await expect(store.get('anthropic@https://api.anthropic.com', 'nope')).rejects.toMatchObject({ code: 'data/invalid' });
  expect(await store.get('anthropic@https://api.anthropic.com', 'pass phrase')).toBe('sk-ant-secret-9876');
});

test('an empty key is refused', async () => {
  await expect(store.set('x@https://a', '   ')).rejects.toMatchObject({ code: 'run/config' });
});
