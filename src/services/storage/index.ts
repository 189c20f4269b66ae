/** The web workers' small IndexedDB databases: opened, read typed, written in one transaction. */
export { KeyedDb, openKeyedDb, type KeyedTransaction } from './keyed-db.ts';
