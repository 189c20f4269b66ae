import { describe, it } from 'vitest';
import { embeddingInt4Forward } from '../../../src/engine/kernels/index.ts';
import { embeddingInt4Ref, quantizeInt4 } from '../../../src/engine/quant/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

describe.each(await weightDtypes())('embeddingInt4Forward, %s scales', (_, dtype, skip) => {
  const device = useTestDevice();
  const V = 11;
  const C = 64;
  const table = randomTensor(V * C, 61);
  const q = quantizeInt4(table, V, C, dtype);
  const ids = [3, 0, 10, 3, 7];

  it.skipIf(skip)('gathers the dequantised rows of an int4 table', async () => {
    const { out } = await runKernel(
      device(),
      embeddingInt4Forward,
      { dtype, groupSize: 32 },
      { ids: Uint32Array.from(ids), table: q.packed, scales: q.scales, out: ids.length * C },
      { T: ids.length, C, rowStart: 0, rows: V },
    );
    checkTensor('int4 embedding', out, embeddingInt4Ref(table, ids, V, C, 32, dtype));
  });

  it.skipIf(skip)('writes only the rows of its chunk', async () => {
    // The chunk holds rows 3..6 of the table; ids outside it leave their output rows as they were.
    const rowStart = 3;
    const rows = 4;
    const chunk = quantizeInt4(table.subarray(rowStart * C, (rowStart + rows) * C), rows, C, dtype);
    const before = randomTensor(ids.length * C, 62);
    const { out } = await runKernel(
      device(),
      embeddingInt4Forward,
      { dtype, groupSize: 32 },
      { ids: Uint32Array.from(ids), table: chunk.packed, scales: chunk.scales, out: before },
      { T: ids.length, C, rowStart, rows },
    );
    const full = embeddingInt4Ref(table, ids, V, C, 32, dtype);
    const expected = Float64Array.from(before);
    ids.forEach((id, t) => {
      if (id >= rowStart && id < rowStart + rows) expected.set(full.subarray(t * C, (t + 1) * C), t * C);
    });
    checkTensor('int4 embedding chunk', out, expected);
  });
});
