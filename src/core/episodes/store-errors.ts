import { BatonError } from '../errors/index.ts';

/** Storage is full. `remedy` tells the user how to make room where they are (page or command line). */
export function storeFullError(cause: unknown, where: string, remedy: string): BatonError {
  return new BatonError({
    code: 'store/quota',
    message: `No room left to save episodes in ${where}; nothing from this save was stored. ${remedy}`,
    data: { where },
    cause,
  });
}

export function isQuotaError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'QuotaExceededError';
}
