/** The recorded answers Baton ships, as the tab's workers read them (the Train and Evaluate pages' recorded pools). */
export { DATA_ROOT, RECORDED_LOADERS, recordedFiles, recordedPoolWorkers, recordedReplay, recordedSource } from './recorded-files.ts';
