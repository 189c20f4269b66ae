import { expect, test } from 'vitest';
import { decryptSecret, encryptSecret } from '../../../../src/client/keys/key-crypto.ts';

// Few iterations: the tests check the construction, not PBKDF2's cost.
test('a key encrypted with a passphrase decrypts with it, and the ciphertext hides it', async () => {
  const box = await encryptSecret('sk-test-1234567890', 'correct horse', 1000);
  expect(JSON.stringify(box)).not.toContain('sk-test');
  expect(await decryptSecret(box, 'correct horse')).toBe('sk-test-1234567890');
});

test('each encryption uses a fresh salt and IV', async () => {
  const a = await encryptSecret('same', 'pass', 1000);
  const b = await encryptSecret('same', 'pass', 1000);
  expect(a.salt).not.toBe(b.salt);
  expect(a.iv).not.toBe(b.iv);
  expect(a.data).not.toBe(b.data);
});

test('a wrong passphrase or tampered ciphertext is data/invalid, with no secret in the message', async () => {
  const box = await encryptSecret('sk-secret-abcd', 'right', 1000);
  await expect(decryptSecret(box, 'wrong')).rejects.toMatchObject({ code: 'data/invalid' });
  const flipped = { ...box, data: box.data.slice(0, -4) + (box.data.endsWith('AAA=') ? 'BAA=' : 'AAA=') };
  const error = await decryptSecret(flipped, 'right').catch((e: Error) => e);
  expect(error).toMatchObject({ code: 'data/invalid' });
  expect((error as Error).message).not.toContain('sk-secret');
});

test('an empty passphrase is refused', async () => {
  await expect(encryptSecret('k', '')).rejects.toMatchObject({ code: 'run/config' });
});
