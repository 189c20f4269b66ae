export { episodesCommand } from './episodes.ts';
