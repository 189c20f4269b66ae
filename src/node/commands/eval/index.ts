export { evalCommand } from './eval.ts';
