import { afterEach, describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { createNodeGpu } from '../../../src/node/webgpu.ts';

describe('createNodeGpu', () => {
  const saved = process.env.VK_ICD_FILENAMES;
  afterEach(() => {
    if (saved === undefined) delete process.env.VK_ICD_FILENAMES;
    else process.env.VK_ICD_FILENAMES = saved;
  });

  it('finds an adapter on this machine (SwiftShader without a GPU) and makes a working device', async () => {
    const gpu = await createNodeGpu();
    const buffer = await gpu.device.upload(Float32Array.from([1.5, -2]), 'probe');
    expect([...(await gpu.device.readF32(buffer))]).toEqual([1.5, -2]);
    gpu.close();
  });

  it.runIf(process.platform === 'linux')('says plainly that there is no adapter when the named Vulkan driver does not exist', async () => {
    process.env.VK_ICD_FILENAMES = '/nonexistent/vk_icd.json';
    const error = await createNodeGpu().catch((e: unknown) => e);
    // A machine whose own Vulkan finds a GPU passes the first attempt; only assert where none did.
    if (BatonError.is(error)) {
      expect(error.code).toBe('engine/no-adapter');
      expect(error.message).toMatch(/chromium|VK_ICD_FILENAMES/);
    } else {
      (error as { close(): void }).close();
    }
  });
});
