/**
 * WebGPU under Node through Dawn (the `webgpu` package). Prefers a real GPU; where there is none,
 * falls back to SwiftShader, the CPU Vulkan driver Chromium ships (Debian: the `chromium` package,
 * /usr/lib/chromium/vk_swiftshader_icd.json). Chromium's directory also holds the Vulkan loader
 * (libvulkan.so.1); when the system has no loader of its own, that one is preloaded so that Dawn's
 * dlopen("libvulkan.so.1") finds it. Without any adapter the error says what to install.
 */
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { BatonError } from '../../core/errors/index.ts';
import { createEngineDevice, GpuModel, type EngineDevice, type WeightFormat } from '../../engine/index.ts';
import { filesFromDir } from '../../engine/model/files-node.ts';
import { openModel, readPeftAdapter } from '../../engine/model/index.ts';
import { loadTokenizer, type Tokenizer } from '../../engine/tokenizer/index.ts';

/** Where Chromium builds keep SwiftShader's Vulkan driver manifest (Debian's package first). */
export const SWIFTSHADER_ICDS = [
  '/usr/lib/chromium/vk_swiftshader_icd.json',
  '/usr/lib/chromium-browser/vk_swiftshader_icd.json',
  '/opt/google/chrome/vk_swiftshader_icd.json',
];

const SYSTEM_VULKAN_LOADERS = [
  '/usr/lib/x86_64-linux-gnu/libvulkan.so.1',
  '/usr/lib/aarch64-linux-gnu/libvulkan.so.1',
  '/usr/lib64/libvulkan.so.1',
  '/usr/lib/libvulkan.so.1',
];

/** glibc's RTLD_NODELETE: keeps the loader mapped after Node's failed addon registration closes it. */
const RTLD_NODELETE = 0x1000;

export interface NodeGpu {
  adapter: GPUAdapter;
  device: EngineDevice;
  /** 'gpu' for a hardware adapter, 'swiftshader' for the CPU fallback. */
  kind: 'gpu' | 'swiftshader';
  /** Destroys the device and lets Dawn's instance go, so that the process can exit. */
  close(): void;
}

type Dawn = { create(options: string[]): GPU };

/**
 * Dawn keeps shader-f16 off on NVIDIA's Vulkan driver by default (a driver issue seen in its
 * conformance runs). The engine's f16 kernels were checked there against the float64 reference
 * (bench/engine-accuracy.ts on an H200, driver 580), so Node turns it on; browsers keep their say.
 */
const GPU_TOGGLES = ['enable-dawn-features=vulkan_enable_f16_on_nvidia'];

/**
 * Dawn rounds GPU timestamps down to 65.5 us by default (against timing attacks in browsers), which
 * leaves KernelProfiler timing most dispatches as 0 or 65.5 us. Node runs no untrusted pages.
 */
const EXACT_TIMESTAMPS = 'disable-dawn-features=timestamp_quantization';

function hasSystemVulkan(): boolean {
  const dirs = (process.env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean);
  return [...SYSTEM_VULKAN_LOADERS, ...dirs.map((d) => join(d, 'libvulkan.so.1'))].some((p) => existsSync(p));
}

function preloadVulkanLoader(path: string): void {
  try {
    process.dlopen({ exports: {} }, path, constants.dlopen.RTLD_NOW | constants.dlopen.RTLD_GLOBAL | RTLD_NODELETE);
  } catch {
    // Expected: the loader is no Node addon ("did not self-register"), yet it stays mapped.
  }
}

async function adapterOf(dawn: Dawn, options: string[]): Promise<{ gpu: GPU; adapter: GPUAdapter } | undefined> {
  const gpu = dawn.create(options);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  return adapter ? { gpu, adapter } : undefined;
}

/**
 * A WebGPU adapter for this machine: a GPU when Vulkan/Metal/D3D finds one, else SwiftShader.
 * VK_ICD_FILENAMES, when set, names the Vulkan driver to use; otherwise it is set to SwiftShader's
 * for the fallback (the Vulkan loader reads it from this process's environment). Keep `gpu`
 * referenced for as long as the adapter or its devices are in use (createNodeGpu does).
 */
export async function requestNodeAdapter(): Promise<{ gpu: GPU; adapter: GPUAdapter; kind: NodeGpu['kind'] }> {
  const env = process.env;
  const dawn = (await import('webgpu')) as unknown as Dawn;
  const linux = process.platform === 'linux';
  const systemVulkan = !linux || hasSystemVulkan();
  if (systemVulkan) {
    const found = await adapterOf(dawn, [...GPU_TOGGLES, EXACT_TIMESTAMPS]);
    if (found) return { ...found, kind: found.adapter.info.architecture === 'swiftshader' ? 'swiftshader' : 'gpu' };
  }
  const icd = env.VK_ICD_FILENAMES ?? SWIFTSHADER_ICDS.find((p) => existsSync(p));
  if (linux && icd) {
    env.VK_ICD_FILENAMES = icd;
    const loader = join(dirname(icd), 'libvulkan.so.1');
    if (!systemVulkan && existsSync(loader)) preloadVulkanLoader(loader);
    const found = await adapterOf(dawn, ['backend=vulkan', EXACT_TIMESTAMPS]);
    if (found) return { ...found, kind: found.adapter.info.architecture === 'swiftshader' ? 'swiftshader' : 'gpu' };
  }
  throw new BatonError({
    code: 'engine/no-adapter',
    message: linux
      ? 'No WebGPU adapter: no GPU driver answered and SwiftShader was not found. Install a Vulkan GPU driver, or ' +
        "Debian's chromium package (it ships /usr/lib/chromium/vk_swiftshader_icd.json), or set VK_ICD_FILENAMES."
      : 'No WebGPU adapter: Dawn found no GPU on this machine.',
    data: { platform: process.platform, icd: icd ?? null },
  });
}

/**
 * Dawn instances with an open device. An instance must stay referenced while its device is in use
 * (collected early, it takes the process down) and be let go after, so the event loop can end.
 */
const openInstances = new Set<GPU>();

export async function createNodeGpu(): Promise<NodeGpu> {
  const { gpu, adapter, kind } = await requestNodeAdapter();
  const device = await createEngineDevice(adapter);
  openInstances.add(gpu);
  return {
    adapter,
    device,
    kind,
    close() {
      device.destroy();
      openInstances.delete(gpu);
    },
  };
}

/** A model directory, the LoRA adapter to apply to it, and how to store its weights. */
export interface NodeModelRef {
  modelDir: string;
  loraDir?: string;
  weights?: WeightFormat;
}

export interface NodeModel {
  gpu: NodeGpu;
  model: GpuModel;
  tokenizer?: Tokenizer;
  close(): void;
}

/**
 * A model directory on disk loaded onto this machine's WebGPU device, with its LoRA adapter when
 * `loraDir` is given and its tokenizer when `withTokenizer`. `close()` frees everything.
 */
export async function openNodeModel(options: NodeModelRef & { withTokenizer?: boolean }): Promise<NodeModel> {
  const files = filesFromDir(options.modelDir);
  const opened = await openModel(files);
  const tokenizer = options.withTokenizer ? await loadTokenizer(files) : undefined;
  const adapter = options.loraDir ? await readPeftAdapter(filesFromDir(options.loraDir), opened.config) : undefined;
  const gpu = await createNodeGpu();
  try {
    const model = await GpuModel.load(gpu.device, opened, options.weights ? { weights: options.weights } : {});
    if (adapter) await model.setLora(adapter);
    return {
      gpu,
      model,
      ...(tokenizer ? { tokenizer } : {}),
      close() {
        model.destroy();
        gpu.close();
      },
    };
  } catch (e) {
    gpu.close();
    throw e;
  }
}
