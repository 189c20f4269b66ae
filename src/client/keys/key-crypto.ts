/**
 * Optional encryption of stored API keys with a passphrase: PBKDF2-SHA-256 derives an AES-GCM key, a fresh
 * salt and IV per secret. WebCrypto only, so it runs the same in a page, a worker and Node 20.
 * Tested by test/unit/client/keys/key-crypto.test.ts.
 */
import { BatonError } from '../../core/errors/index.ts';

export interface EncryptedSecret {
  salt: string; // base64
  iv: string; // base64
  data: string; // base64: ciphertext with the GCM tag
  /** PBKDF2's count when this box was made: a box opens with its own count, so raising the default breaks none. */
  iterations: number;
}

/** OWASP's figure for PBKDF2-HMAC-SHA256 (Password Storage Cheat Sheet); boxes made before hold 310,000. */
export const PBKDF2_ITERATIONS = 600_000;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function deriveKey(passphrase: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

export async function encryptSecret(secret: string, passphrase: string, iterations = PBKDF2_ITERATIONS): Promise<EncryptedSecret> {
  if (passphrase === '') throw new BatonError({ code: 'run/config', message: 'The passphrase is empty: type one, or save the key unencrypted.' });
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await deriveKey(passphrase, salt, iterations);
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(secret));
  return { salt: toBase64(salt), iv: toBase64(iv), data: toBase64(new Uint8Array(data)), iterations };
}

export async function decryptSecret(box: EncryptedSecret, passphrase: string): Promise<string> {
  const key = await deriveKey(passphrase, fromBase64(box.salt), box.iterations);
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(box.iv) as BufferSource }, key, fromBase64(box.data) as BufferSource);
    return new TextDecoder().decode(plain);
  } catch {
    throw new BatonError({
      code: 'data/invalid',
      message: 'Wrong passphrase: the stored key could not be decrypted. Try again, or remove the key and add it anew.',
    });
  }
}
