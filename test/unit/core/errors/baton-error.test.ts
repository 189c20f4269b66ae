import { describe, expect, it } from 'vitest';
import { BatonError, toBatonError } from '../../../../src/core/errors/index.ts';

describe('toBatonError', () => {
  it('keeps a BatonError as it is', () => {
    const e = new BatonError({ code: 'provider/auth', message: 'Wrong key.' });
    expect(toBatonError(e)).toBe(e);
  });

  it('reads anything else as a bug, never as a setting the user got wrong', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'steps')");
    const e = toBatonError(bug);
    expect(e.code).toBe('internal');
    expect(e.message).toBe("Unexpected error inside Baton (a bug; please report it): Cannot read properties of undefined (reading 'steps')");
    expect(e.cause).toBe(bug);
    expect(toBatonError('a string').message).toMatch(/a bug.*: a string$/);
  });

  it("takes the caller's code where it knows what can fail there, with the original message", () => {
    const e = toBatonError(new DOMException('The quota has been exceeded.', 'QuotaExceededError'), 'store/io');
    expect(e).toMatchObject({ code: 'store/io', message: 'The quota has been exceeded.' });
  });

  it('reads an AbortError as a stop', () => {
    expect(toBatonError(new DOMException('The operation was aborted.', 'AbortError'))).toMatchObject({ code: 'run/aborted', message: 'Stopped.' });
  });
});
