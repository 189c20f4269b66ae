import { expect, test } from 'vitest';
import { decryptSecret, encryptSecret, PBKDF2_ITERATIONS } from '../../../../src/client/keys/key-crypto.ts';

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

test('new keys are encrypted with 600,000 PBKDF2 iterations, recorded in the box', async () => {
  expect(PBKDF2_ITERATIONS).toBe(600_000);
  const box = await encryptSecret('sk-new-box-0600', 'a passphrase');
  expect(box.iterations).toBe(600_000);
  expect(await decryptSecret(box, 'a passphrase')).toBe('sk-new-box-0600');
});

test('a box made before, at 310,000 iterations, still opens with its passphrase', async () => {
  // Made by encryptSecret when 310,000 was the default, and kept as it was stored.
  const old = { salt: 'MnmYL9b0lj8IRw4lq++Fbw==', iv: 'KnyGoDYgzzWALkLO', data: 'AH7PlNSa/SDwzlXDqmeUHB8PTv6FSB2A5OLtoDkP/w==', iterations: 310_000 };
  expect(await decryptSecret(old, 'an older passphrase')).toBe('sk-old-box-0310');
  await expect(decryptSecret({ ...old, iterations: 600_000 }, 'an older passphrase')).rejects.toMatchObject({ code: 'data/invalid' });
});
