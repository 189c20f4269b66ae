export { trainCommand } from './train.ts';
