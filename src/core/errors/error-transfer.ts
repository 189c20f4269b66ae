/**
 * Errors that cross the worker boundary keep their `code` and `data`. comlink's own 'throw' handler keeps
 * only name, message and stack, so the UI could not match on `code`; this wraps it so a BatonError
 * thrown in a worker is rebuilt as a BatonError in the page. Import this module on both sides (the page through src/client, each web worker in its entry file).
 * Tested by test/unit/core/errors/error-transfer.test.ts.
 */
import { transferHandlers, type TransferHandler } from 'comlink';
import { BatonError, type BatonErrorInit } from './index.ts';

type Thrown = { value: unknown };
type Wire = { batonError: true; value: Omit<BatonErrorInit, 'cause' | 'isRetryable'> & { isRetryable: boolean } } | { batonError?: false };

const original = transferHandlers.get('throw') as TransferHandler<Thrown, Wire>;

export const batonThrowHandler: TransferHandler<Thrown, Wire> = {
  canHandle: (value): value is Thrown => original.canHandle(value),
  serialize(thrown) {
    const e = thrown.value;
    if (e instanceof BatonError) return [{ batonError: true, value: { ...e.toJSON(), isRetryable: e.isRetryable } }, []];
    return original.serialize(thrown);
  },
  deserialize(wire) {
    if (wire.batonError) throw new BatonError(wire.value);
    return original.deserialize(wire);
  },
};

transferHandlers.set('throw', batonThrowHandler as TransferHandler<unknown, unknown>);
