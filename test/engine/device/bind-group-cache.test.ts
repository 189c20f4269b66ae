import { describe, expect, it } from 'vitest';
import { BindGroupCache } from '../../../src/engine/device/bind-group-cache.ts';
import { swigluForward } from '../../../src/engine/kernels/index.ts';
import { useTestDevice } from '../../support/webgpu.ts';

describe('BindGroupCache', () => {
  const device = useTestDevice();

  it('reuses a group for the same buffers, offsets and sizes, makes a new one when any differs, and empties at its limit', () => {
    const d = device();
    const { layout } = d.pipelines.get(swigluForward, {});
    const [a, b, c, u] = [d.createBuffer(64, 'a'), d.createBuffer(64, 'b'), d.createBuffer(64, 'c'), d.uniformBuffer(1024)];
    const cache = new BindGroupCache(d.gpu, 3);
    const bind = (x: GPUBuffer, uniformOffset = 0, size = 64) =>
      cache.get('swiglu', layout, [
        { buffer: x, offset: 0, size },
        { buffer: b, offset: 0, size: 64 },
        { buffer: c, offset: 0, size: 64 },
        { buffer: u, offset: uniformOffset, size: 16 },
      ]);
    const first = bind(a);
    expect(bind(a)).toBe(first);
    expect(bind(c)).not.toBe(first);
    expect(bind(a, 256)).not.toBe(first);
    expect(cache.size).toBe(3);
    expect(bind(a, 0, 32)).not.toBe(first); // at the limit: emptied, then this one kept
    expect(cache.size).toBe(1);
    expect(bind(a)).not.toBe(first);
    for (const x of [a, b, c, u]) d.free(x);
  });
});
