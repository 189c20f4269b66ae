export { KeyStore, type KeyInfo } from './key-store.ts';
export { SessionKeys } from './session-keys.ts';
export { encryptSecret, decryptSecret, PBKDF2_ITERATIONS, type EncryptedSecret } from './key-crypto.ts';
