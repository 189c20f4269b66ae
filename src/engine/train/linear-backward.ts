/**
 * A linear layer's backward on the GPU, the port of model-backward.ref.ts's linearBackward: for
 * y (M, out) = x (M, in) W^T + b + s (x A^T) B^T it adds into dx (M, in) the input gradient through
 * the frozen or trained W (any storage: f32, f16, int4; row chunks) and, where the layer is adapted,
 * through the adapter; it accumulates the gradients of what trains: dW, db (full fine-tuning) or
 * dA, dB (LoRA). LoRA's four dispatches are those of matmul-backward.ts's header:
 *   xA = x A^T (recomputed), dxA = s dy B, dB += s dy^T xA, dA += dxA^T x, dx += dxA A.
 */
import type { CommandBatch } from '../device/index.ts';
import { MAX_ROWS_PER_THREAD, matmulBackwardBias, matmulBackwardInput, matmulBackwardWeight, matmulInt4BackwardInput } from '../kernels/index.ts';
import { linearForward, wholeBuffer, type GpuLoraModule, type GpuTensor } from '../runtime/index.ts';

/** Gradient buffers of one adapted module, f32, added into. */
export interface LoraGradients {
  readonly dA: GPUBuffer; // (r, in)
  readonly dB: GPUBuffer; // (out, r)
}

interface LinearBackwardArgs {
  x: GPUBuffer; // (M, in) the layer's input
  M: number;
  weight: GpuTensor; // (out, in)
  dy: GPUBuffer; // (M, out)
  dx: GPUBuffer; // (M, in)
  /** Add into dx instead of overwriting it (a second consumer of the same input). */
  accumulate: boolean;
  lanes: number;
  /** Full fine-tuning: one gradient buffer per row chunk of the weight, and the bias's. */
  dWeight?: readonly GPUBuffer[];
  bias?: GpuTensor;
  dBias?: GPUBuffer; // (out)
  /** xA and dxA: (M, r) temporaries. */
  lora?: { module: GpuLoraModule; scale: number; xa: GPUBuffer; dxa: GPUBuffer; grads?: LoraGradients };
}

const layout = (rows: number, lanes: number) => ({ rowsPerThread: Math.min(rows, MAX_ROWS_PER_THREAD), lanes });

export function linearBackward(batch: CommandBatch, a: LinearBackwardArgs): void {
  const { M, weight: w, lanes } = a;
  const [outF, inF] = [w.rows, w.cols];
  w.chunks.forEach((chunk, i) => {
    // dx (M, in) (+)= dy[:, chunk rows] W_chunk: later chunks add to the first.
    const options = { ...layout(M, lanes), accumulate: a.accumulate || i > 0 };
    const shape = { M, N: inF, K: chunk.rows, ldo: inF, col0: 0, alpha: 1, ldy: outF, dyCol0: chunk.rowStart };
    if (w.int4) {
      batch.run(
        matmulInt4BackwardInput,
        { ...options, dtype: w.dtype, groupSize: w.int4.groupSize },
        { dy: a.dy, w: chunk.buffer, scales: chunk.scales!, dx: a.dx },
        shape,
      );
    } else {
      batch.run(matmulBackwardInput, { ...options, dtype: w.dtype }, { dy: a.dy, w: chunk.buffer, dx: a.dx }, shape);
    }
    if (a.dWeight) {
      // dW_chunk (rows, in) += dy[:, chunk rows]^T x
      batch.run(
        matmulBackwardWeight,
        { ...layout(chunk.rows, lanes), accumulate: true },
        { dy: a.dy, x: a.x, dw: a.dWeight[i] },
        { M: chunk.rows, N: inF, K: M, ldo: inF, col0: 0, alpha: 1, ldy: outF, dyCol0: chunk.rowStart },
      );
    }
  });
  if (a.bias && a.dBias) batch.run(matmulBackwardBias, { accumulate: true }, { dy: a.dy, db: a.dBias }, { T: M, N: outF, ldy: outF, dyCol0: 0 });
  if (a.lora) loraBackward(batch, a, a.lora);
}

function loraBackward(batch: CommandBatch, a: LinearBackwardArgs, lora: NonNullable<LinearBackwardArgs['lora']>): void {
  const { M, lanes } = a;
  const { A, B } = lora.module;
  const [r, inF, outF] = [A.rows, A.cols, B.rows];
  const { xa, dxa } = lora;
  linearForward(batch, { x: a.x, M, weight: A, out: xa, lanes });
  const [bufA, bufB] = [wholeBuffer(A), wholeBuffer(B)];
  batch.run(
    matmulBackwardInput,
    { ...layout(M, lanes), accumulate: false, dtype: 'f32' },
    { dy: a.dy, w: bufB, dx: dxa },
    { M, N: r, K: outF, ldo: r, col0: 0, alpha: lora.scale, ldy: outF, dyCol0: 0 },
  );
  if (lora.grads) {
    const { dA, dB } = lora.grads;
    batch.run(
      matmulBackwardWeight,
      { ...layout(outF, lanes), accumulate: true },
      { dy: a.dy, x: xa, dw: dB },
      { M: outF, N: r, K: M, ldo: r, col0: 0, alpha: lora.scale, ldy: outF, dyCol0: 0 },
    );
    batch.run(
      matmulBackwardWeight,
      { ...layout(r, lanes), accumulate: true },
      { dy: dxa, x: a.x, dw: dA },
      { M: r, N: inF, K: M, ldo: inF, col0: 0, alpha: 1, ldy: r, dyCol0: 0 },
    );
  }
  batch.run(
    matmulBackwardInput,
    { ...layout(M, lanes), accumulate: true, dtype: 'f32' },
    { dy: dxa, w: bufA, dx: a.dx },
    { M, N: inF, K: r, ldo: inF, col0: 0, alpha: 1, ldy: r, dyCol0: 0 },
  );
}
