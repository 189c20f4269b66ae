export { clearReplay, importReplayCsv, loadReplay, REPLAY_DB_NAME, saveReplay, type StoredReplay } from './replay-store.ts';
