/**
 * What the CLI writes and reads back on disk: the episode directory, a training run's checkpoints, its logs
 * and a fully trained model directory, an evaluation's logs and its lock, and a fresh output directory.
 */
export { checkpointDir, readLatestCheckpoint } from './checkpoint-dir.ts';
export { EpisodeDirStore, openEpisodesDir } from './episode-dir.ts';
export { lockEvalDir, type EvalLock } from './eval-lock.ts';
export { appendCall, appendEpisode, readCallLog, readEpisodeLog } from './eval-log.ts';
export { writeModelDir } from './model-dir.ts';
export { outputDir } from './out-dir.ts';
export { stepOfEpisode, truncateLog } from './run-log.ts';
