/**
 * The LM head of a training pass, from the last layer's output x (T, C): final norm, logits by row
 * chunks of at most rowsPerChunk rows (one (rows, V) buffer, the largest of a step, must fit one
 * storage binding), then per chunk either logprobs and entropy (forward) or the logprobs backward,
 * overwriting the logits with dLogits, and the head's matmul backward (backward). Neither phase keeps
 * the logits: the backward recomputes them from the saved x, so a micro-batch holds one chunk's
 * logits at a time, never (T, V).
 */
import type { CommandBatch } from '../device/index.ts';
import { logprobsBackward, logprobsForward, logprobsThreads } from '../kernels/index.ts';
import { linearForward } from '../runtime/index.ts';
import { rmsnorm } from './layer-forward.ts';
import { rmsnormBackwardInto, trainingLinearBackward, type LayerGradients } from './layer-backward.ts';
import type { TrainingPass } from './training-pass.ts';

interface HeadInputs {
  x: GPUBuffer; // (T, C) the last layer's output
  targets: GPUBuffer; // (T) u32: the next token of each row (anything on rows without one)
  invTemperature: number;
  /** Rows of logits per chunk (at least 1). */
  rowsPerChunk: number;
}

/** Rows of logits (V floats each) that one buffer of `maxBytes` holds. */
export function headRowsPerChunk(vocabSize: number, maxBytes: number): number {
  return Math.max(1, Math.floor(maxBytes / (vocabSize * 4)));
}

/** Buffers for one chunk of rows, made once per pass; with a single chunk they are the whole ones. */
interface Chunk {
  r0: number;
  rows: number;
  x: GPUBuffer; // (rows, C) final-normed
  logits: GPUBuffer; // (rows, V)
  slice(whole: GPUBuffer): GPUBuffer; // a (rows) slice of a (T) buffer, copied in
  /** Copies a chunk's (rows, width) result into rows r0.. of a whole (T, width) buffer, unless it is the whole. */
  place(part: GPUBuffer, whole: GPUBuffer, width: number): void;
}

function forEachChunk(batch: CommandBatch, pass: TrainingPass, h: HeadInputs, each: (c: Chunk) => void): void {
  const { T, scratch } = pass;
  const { hiddenSize: C, vocabSize: V } = pass.config;
  const final = scratch.floats(T * C, 'final normed'); // (T, C)
  rmsnorm(batch, pass, h.x, pass.weights.norm, final, T, C);
  const most = Math.min(h.rowsPerChunk, T);
  const whole = most === T;
  const logits = scratch.floats(most * V, 'logits');
  const x = whole ? final : scratch.floats(most * C, 'head rows');
  const slices = new Map<GPUBuffer, GPUBuffer>();
  for (let r0 = 0; r0 < T; r0 += most) {
    const rows = Math.min(most, T - r0);
    if (!whole) batch.copy(final, r0 * C * 4, x, 0, rows * C * 4);
    linearForward(batch, { x, M: rows, weight: pass.weights.lmHead, out: logits, lanes: pass.lanes });
    each({
      r0,
      rows,
      x,
      logits,
      slice: (w) => {
        if (whole) return w;
        let part = slices.get(w);
        if (!part) slices.set(w, (part = scratch.floats(most, 'head row slice')));
        batch.copy(w, r0 * 4, part, 0, rows * 4);
        return part;
      },
      place: (part, target, width) => {
        if (part !== target) batch.copy(part, 0, target, r0 * width * 4, rows * width * 4);
      },
    });
  }
}

/**
 * Writes each row's logprob of its target into out[0..T) and its entropy into out[T..2T). The entropy
 * comes from logprobsBackward run with `zeros` (T) as dLogp, over logits no longer needed.
 */
export function encodeHeadForward(batch: CommandBatch, pass: TrainingPass, h: HeadInputs, zeros: GPUBuffer, out: GPUBuffer): void {
  const { T, scratch } = pass;
  const V = pass.config.vocabSize;
  const most = Math.min(h.rowsPerChunk, T);
  const lp = scratch.floats(most, 'logprobs');
  const entropy = scratch.floats(most, 'entropy');
  forEachChunk(batch, pass, h, (c) => {
    const uniforms = { R: c.rows, V, invTemperature: h.invTemperature };
    const targets = c.slice(h.targets);
    batch.run(logprobsForward, { threads: logprobsThreads(V) }, { logits: c.logits, targets, out: lp }, uniforms);
    batch.run(logprobsBackward, { threads: logprobsThreads(V) }, { logits: c.logits, targets, dLogp: c.slice(zeros), entropy }, uniforms);
    batch.copy(lp, 0, out, c.r0 * 4, c.rows * 4);
    batch.copy(entropy, 0, out, (T + c.r0) * 4, c.rows * 4);
  });
}

/**
 * dLogp (T) back to dx (T, C), the gradient of the last layer's output, and into the head's and the
 * final norm's gradients where they train. `g` lends its rstd and LoRA temporaries.
 */
export function encodeHeadBackward(batch: CommandBatch, pass: TrainingPass, h: HeadInputs, g: LayerGradients, dLogp: GPUBuffer, dx: GPUBuffer): void {
  const { T, scratch } = pass;
  const { hiddenSize: C, vocabSize: V } = pass.config;
  const most = Math.min(h.rowsPerChunk, T);
  const entropy = scratch.floats(most, 'entropy');
  const dFinal = scratch.floats(T * C, 'd final normed');
  const dRows = most === T ? dFinal : scratch.floats(most * C, 'd head rows');
  forEachChunk(batch, pass, h, (c) => {
    const uniforms = { R: c.rows, V, invTemperature: h.invTemperature };
    batch.run(logprobsBackward, { threads: logprobsThreads(V) }, { logits: c.logits, targets: c.slice(h.targets), dLogp: c.slice(dLogp), entropy }, uniforms);
    trainingLinearBackward(batch, { ...pass, T: c.rows }, g, c.x, pass.weights.lmHead, c.logits, dRows, false);
    c.place(dRows, dFinal, C);
  });
  rmsnormBackwardInto(batch, pass, g.rstd, h.x, pass.weights.norm, dFinal, dx, T, C, false);
}
