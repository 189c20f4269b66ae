import { describe, it } from 'vitest';
import { embeddingForward, embeddingRef } from '../../../src/engine/kernels/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('embeddingForward', () => {
  const device = useTestDevice();
  const V = 11;
  const C = 24;
  const table = randomTensor(V * C, 21);
  const ids = [3, 0, 10, 3, 7];

  it('gathers rows of the table', async () => {
    const { out } = await runKernel(
      device(),
      embeddingForward,
      { dtype: 'f32' },
      { ids: Uint32Array.from(ids), table, out: ids.length * C },
      { T: ids.length, C, rowStart: 0, rows: V },
    );
    checkTensor('embedding', out, embeddingRef(table, ids, C));
  });

  it('gathers from a table split in two row chunks, one dispatch per chunk', async () => {
    const d = device();
    const split = 6;
    const idBuf = await d.upload(Uint32Array.from(ids), 'ids');
    const lo = await d.upload(table.subarray(0, split * C), 'lo');
    const hi = await d.upload(table.subarray(split * C), 'hi');
    const out = d.createBuffer(ids.length * C * 4, 'out');
    await d
      .batch()
      .run(embeddingForward, { dtype: 'f32' }, { ids: idBuf, table: lo, out }, { T: ids.length, C, rowStart: 0, rows: split })
      .run(embeddingForward, { dtype: 'f32' }, { ids: idBuf, table: hi, out }, { T: ids.length, C, rowStart: split, rows: V - split })
      .submit();
    checkTensor('embedding (split)', await d.readF32(out), embeddingRef(table, ids, C));
  });
});
