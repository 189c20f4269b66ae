import { describe, expect, it } from 'vitest';
import { embeddingBackward, embeddingBackwardRef, embeddingForward, embeddingRef, tokensById } from '../../../src/engine/kernels/index.ts';
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

describe('embeddingBackward', () => {
  const device = useTestDevice();
  const V = 11;
  const C = 24;
  // id 3 three times and 7 twice, not adjacent; T * C spans several workgroups and ends mid-workgroup.
  const ids = [3, 0, 10, 3, 7, 5, 7, 3, 1, 9, 2, 6, 4];
  const T = ids.length;
  const dOut = randomTensor(T * C, 22);
  const before = randomTensor(V * C, 23);
  const expected = embeddingBackwardRef(dOut, ids, V, C).map((g, i) => g + before[i]);

  it('orders tokens so that equal ids are adjacent', () => {
    expect(Array.from(tokensById([3, 0, 3, 1]))).toEqual([1, 3, 0, 2]);
  });

  it('adds the summed rows of each id into dTable, repeated ids included', async () => {
    const { dTable } = await runKernel(
      device(),
      embeddingBackward,
      {},
      { ids: Uint32Array.from(ids), order: tokensById(ids), dOut, dTable: before },
      { T, C, rowStart: 0, rows: V },
    );
    checkTensor('dTable', dTable, expected);
  });

  it('adds into a table split in two row chunks, one dispatch per chunk', async () => {
    const d = device();
    const split = 6;
    const idBuf = await d.upload(Uint32Array.from(ids), 'ids');
    const order = await d.upload(tokensById(ids), 'order');
    const dOutBuf = await d.upload(dOut, 'dOut');
    const lo = await d.upload(before.subarray(0, split * C), 'lo');
    const hi = await d.upload(before.subarray(split * C), 'hi');
    await d
      .batch()
      .run(embeddingBackward, {}, { ids: idBuf, order, dOut: dOutBuf, dTable: lo }, { T, C, rowStart: 0, rows: split })
      .run(embeddingBackward, {}, { ids: idBuf, order, dOut: dOutBuf, dTable: hi }, { T, C, rowStart: split, rows: V - split })
      .submit();
    checkTensor('dTable (split)', [...(await d.readF32(lo)), ...(await d.readF32(hi))], expected);
  });
});
