/**
 * What to do after a Conductor model load failed, in plain words, by error code: the engine's own
 * messages say what went wrong, not always what a user can change.
 */
const ADVICE: Partial<Record<string, string>> = {
  'engine/out-of-memory':
    'The model does not fit this GPU as chosen. Choose int4 weights (about a quarter of the memory of f32), a smaller model, or close other tabs that use the GPU; a pool worker or a remote endpoint can be the Conductor instead.',
  'engine/device-lost':
    'The GPU stopped this tab (a driver reset, or memory running out). Load the model again; if it happens again, choose int4 weights or a smaller model.',
  'engine/no-adapter':
    'This browser offers no usable WebGPU here (see "Your GPU in this browser" below). A pool worker, a remote endpoint or random routing can be the Conductor.',
};

export function loadAdvice(code: string): string | undefined {
  return ADVICE[code];
}
