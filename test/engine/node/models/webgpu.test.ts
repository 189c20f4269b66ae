import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createNodeGpu } from '../../../../src/node/models/webgpu.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

describe('createNodeGpu', () => {
  it('finds an adapter on this machine (SwiftShader without a GPU) and makes a working device', async () => {
    const gpu = await createNodeGpu();
    const buffer = await gpu.device.upload(Float32Array.from([1.5, -2]), 'probe');
    expect([...(await gpu.device.readF32(buffer))]).toEqual([1.5, -2]);
    gpu.close();
  });

  it.runIf(process.platform === 'linux')('says plainly that there is no adapter when the named Vulkan driver does not exist', async () => {
    // A process of its own, whose Vulkan loader knows of no driver but the missing one, so that a GPU
    // on this machine cannot answer instead (VK_DRIVER_FILES and VK_ADD_DRIVER_FILES would override it).
    const env: NodeJS.ProcessEnv = { ...process.env, VK_ICD_FILENAMES: '/nonexistent/vk_icd.json' };
    delete env.VK_DRIVER_FILES;
    delete env.VK_ADD_DRIVER_FILES;
    const script = `const { createNodeGpu } = await import('./src/node/models/webgpu.ts');
      const outcome = await createNodeGpu().then((gpu) => (gpu.close(), { kind: gpu.kind }), (e) => ({ code: e.code, message: e.message }));
      console.log(JSON.stringify(outcome));`;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env }, (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(outcome.code).toBe('engine/no-adapter');
    expect(outcome.message).toMatch(/chromium|VK_ICD_FILENAMES/);
  });
});
