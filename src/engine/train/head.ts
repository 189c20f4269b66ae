/**
 * The LM head of a training pass, from the last layer's output x (T, C): final norm, logits (rows,
 * V) by row chunks that fit one storage binding (the largest buffer of a step), then per chunk either
 * logprobs and entropy (forward) or the logprobs backward, overwriting the logits with dLogits, and
 * the head's matmul backward (backward). Neither phase keeps the logits: the backward recomputes them
 * from the saved x, so a micro-batch holds (rows, V) floats at a time, not (T, V).
 */
import type { CommandBatch } from '../device/index.ts';
import { logprobsBackward, logprobsForward } from '../kernels/index.ts';
import { linearForward } from '../runtime/index.ts';
import { rmsnorm } from './layer-forward.ts';
import { rmsnormBackwardInto, trainingLinearBackward } from './layer-backward.ts';
import type { TrainingPass } from './training-pass.ts';

export interface HeadInputs {
  x: GPUBuffer; // (T, C) the last layer's output
  targets: GPUBuffer; // (T) u32: the next token of each row (anything on rows without one)
  invTemperature: number;
  /** Rows of logits per chunk (at least 1). */
  rowsPerChunk: number;
}

/** Calls `each(r0, rows, x rows (rows, C))` per row chunk of the final-normed hidden states. */
function forEachChunk(batch: CommandBatch, pass: TrainingPass, final: GPUBuffer, rowsPerChunk: number, each: (r0: number, rows: number, x: GPUBuffer) => void): void {
  const { T } = pass;
  const C = pass.config.hiddenSize;
  for (let r0 = 0; r0 < T; r0 += rowsPerChunk) {
    const rows = Math.min(rowsPerChunk, T - r0);
    let x = final;
    if (rows < T) {
      x = pass.scratch.floats(rows * C, 'head rows');
      batch.copy(final, r0 * C * 4, x, 0, rows * C * 4);
    }
    each(r0, rows, x);
  }
}

/** Per-row slices of a (T) buffer for one chunk: a copy in for reads, and a copy back out for writes. */
function rowSlice(batch: CommandBatch, pass: TrainingPass, whole: GPUBuffer, r0: number, rows: number, copyIn: boolean): GPUBuffer {
  if (rows === pass.T) return whole;
  const part = pass.scratch.floats(rows, 'head row slice');
  if (copyIn) batch.copy(whole, r0 * 4, part, 0, rows * 4);
  return part;
}

function finalNorm(batch: CommandBatch, pass: TrainingPass, x: GPUBuffer): GPUBuffer {
  const final = pass.scratch.floats(pass.T * pass.config.hiddenSize, 'final normed'); // (T, C)
  rmsnorm(batch, pass, x, pass.weights.norm, final, pass.T, pass.config.hiddenSize);
  return final;
}

function logits(batch: CommandBatch, pass: TrainingPass, x: GPUBuffer, rows: number): GPUBuffer {
  const out = pass.scratch.floats(rows * pass.config.vocabSize, 'logits'); // (rows, V)
  linearForward(batch, { x, M: rows, weight: pass.weights.lmHead, out, lanes: pass.lanes });
  return out;
}

/**
 * Writes each row's logprob of its target into out[0..T) and its entropy into out[T..2T). The entropy
 * comes from logprobsBackward run with `zeros` (T) as dLogp, over logits no longer needed.
 */
export function encodeHeadForward(batch: CommandBatch, pass: TrainingPass, h: HeadInputs, zeros: GPUBuffer, out: GPUBuffer): void {
  const { T } = pass;
  const V = pass.config.vocabSize;
  forEachChunk(batch, pass, finalNorm(batch, pass, h.x), h.rowsPerChunk, (r0, rows, x) => {
    const z = logits(batch, pass, x, rows);
    const targets = rowSlice(batch, pass, h.targets, r0, rows, true);
    const lp = pass.scratch.floats(rows, 'logprobs');
    const entropy = pass.scratch.floats(rows, 'entropy');
    const uniforms = { R: rows, V, invTemperature: h.invTemperature };
    batch.run(logprobsForward, {}, { logits: z, targets, out: lp }, uniforms);
    batch.run(logprobsBackward, {}, { logits: z, targets, dLogp: rowSlice(batch, pass, zeros, r0, rows, true), entropy }, uniforms);
    batch.copy(lp, 0, out, r0 * 4, rows * 4);
    batch.copy(entropy, 0, out, (T + r0) * 4, rows * 4);
  });
}

/** dLogp (T) back to dx (T, C), the gradient of the last layer's output, and into the head's and final norm's gradients. */
export function encodeHeadBackward(batch: CommandBatch, pass: TrainingPass, h: HeadInputs, dLogp: GPUBuffer, dx: GPUBuffer): void {
  const { T } = pass;
  const { hiddenSize: C, vocabSize: V } = pass.config;
  const dFinal = pass.scratch.floats(T * C, 'd final normed');
  forEachChunk(batch, pass, finalNorm(batch, pass, h.x), h.rowsPerChunk, (r0, rows, x) => {
    const z = logits(batch, pass, x, rows);
    const entropy = pass.scratch.floats(rows, 'entropy');
    const uniforms = { R: rows, V, invTemperature: h.invTemperature };
    const targets = rowSlice(batch, pass, h.targets, r0, rows, true);
    batch.run(logprobsBackward, {}, { logits: z, targets, dLogp: rowSlice(batch, pass, dLogp, r0, rows, true), entropy }, uniforms);
    const dRows = rows === T ? dFinal : pass.scratch.floats(rows * C, 'd head rows');
    trainingLinearBackward(batch, { ...pass, T: rows }, x, pass.weights.lmHead, z, dRows, false);
    if (dRows !== dFinal) batch.copy(dRows, 0, dFinal, r0 * C * 4, rows * C * 4);
  });
  rmsnormBackwardInto(batch, pass, h.x, pass.weights.norm, dFinal, dx, T, C, false);
}
