import { inspect } from 'node:util';
import { expect } from 'vitest';

/** Asserts a secret appears in no printable form of an error: message, JSON, data, stack, inspect (causes included). */
export function expectSecretAbsent(error: unknown, secret: string): void {
  const forms = [
    String(error),
    JSON.stringify(error),
    JSON.stringify((error as { data?: unknown }).data ?? null),
    (error as Error).stack ?? '',
    inspect(error, { depth: 10, showHidden: true }),
  ];
  for (const form of forms) expect(form).not.toContain(secret);
}

/** The rejection of a promise that must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}
