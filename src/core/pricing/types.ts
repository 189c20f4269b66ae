/**
 * What a call is billed on. These live here rather than in providers/ because providers price their
 * workers with this folder: pricing depends on nothing else in core, and providers re-export both.
 */

/** Token counts of one call. `cached` and `reasoning` where the API reports them. */
export interface Usage {
  input: number;
  output: number;
  cached?: number;
  reasoning?: number;
  /** Dollars the call was billed, where that was recorded (RouterBench's replayed calls): it stands for tokens x price. */
  costUsd?: number;
}

/** US dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
  cachedInput?: number;
}
