import { transferHandlers } from 'comlink';
import { expect, test } from 'vitest';
import { batonThrowHandler } from '../../../../src/core/errors/error-transfer.ts';
import { BatonError } from '../../../../src/core/errors/index.ts';

/** What comlink does with a thrown value: serialize on one side, structured-clone, deserialize on the other. */
function acrossBoundary(value: unknown): unknown {
  const [wire] = batonThrowHandler.serialize({ value });
  try {
    batonThrowHandler.deserialize(structuredClone(wire));
  } catch (e) {
    return e;
  }
  throw new Error('deserialize did not throw');
}

test("it replaces comlink's throw handler", () => {
  expect(transferHandlers.get('throw')).toBe(batonThrowHandler);
});

test('a BatonError keeps its code, message, data and retryability', () => {
  const original = new BatonError({ code: 'provider/rate-limit', message: 'Slow down: retry in 20 s.', data: { worker: 'gpt-5' }, isRetryable: true });
  const back = acrossBoundary(original);
  expect(back).toBeInstanceOf(BatonError);
  expect(back).toMatchObject({ code: 'provider/rate-limit', message: 'Slow down: retry in 20 s.', data: { worker: 'gpt-5' }, isRetryable: true });
});

test('other errors and thrown values cross as comlink always sent them', () => {
  expect(acrossBoundary(new TypeError('bad'))).toMatchObject({ message: 'bad', name: 'TypeError' });
  expect(acrossBoundary('plain')).toBe('plain');
});
