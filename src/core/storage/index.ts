/** Baton's small IndexedDB databases (the spending ledger, the web workers' stores): opened, read typed, written in one transaction. */
export { KeyedDb, openKeyedDb, type KeyedTransaction } from './keyed-db.ts';
