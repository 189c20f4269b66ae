import { describe, it } from 'vitest';
import { embeddingForward } from '../../../src/engine/kernels/index.ts';
import { embeddingRef } from '../../../src/engine/model/index.ts';
import { checkTensor, randomTensor, storedAs } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

describe.each(await weightDtypes())('embeddingForward, %s weights', (_, dtype, skip) => {
  const device = useTestDevice();
  const V = 11;
  const C = 24;
  const table = storedAs(dtype, randomTensor(V * C, 21));
  const ids = [3, 0, 10, 3, 7];

  it.skipIf(skip)('gathers rows of the table', async () => {
    const { out } = await runKernel(
      device(),
      embeddingForward,
      { dtype },
      { ids: Uint32Array.from(ids), table: table.data, out: ids.length * C },
      { T: ids.length, C, rowStart: 0, rows: V },
    );
    checkTensor('embedding', out, embeddingRef(table.ref, ids, C));
  });

  it.skipIf(skip)('gathers from a table split in two row chunks, one dispatch per chunk', async () => {
    const d = device();
    const split = 6;
    const idBuf = await d.upload(Uint32Array.from(ids), 'ids');
    const lo = await d.upload(table.data.subarray(0, split * C), 'lo');
    const hi = await d.upload(table.data.subarray(split * C), 'hi');
    const out = d.createBuffer(ids.length * C * 4, 'out');
    await d
      .batch()
      .run(embeddingForward, { dtype }, { ids: idBuf, table: lo, out }, { T: ids.length, C, rowStart: 0, rows: split })
      .run(embeddingForward, { dtype }, { ids: idBuf, table: hi, out }, { T: ids.length, C, rowStart: split, rows: V - split })
      .submit();
    checkTensor('embedding (split)', await d.readF32(out), embeddingRef(table.ref, ids, C));
  });
});
