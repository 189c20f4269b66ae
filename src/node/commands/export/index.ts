export { exportCommand } from './export.ts';
