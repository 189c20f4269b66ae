export { BatonError, toBatonError } from './baton-error.ts';
export type { BatonErrorCode, BatonErrorInit } from './baton-error.ts';
