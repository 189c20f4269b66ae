/**
 * The model folder's public face: config, weights (safetensors), model files from a URL or picked
 * files, and LoRA adapters. Browser-safe: the Node disk source
 * lives in ./files-node.ts and is imported directly by Node code.
 */
export { parseModelConfig, ropeInvFreq } from './config.ts';
export type { Architecture, ModelConfig, RopeScaling } from './config.ts';
export { decodeTensor, elementCount, f16ToF32, f32ToBf16, f32ToF16, headerLength, parseHeader, writeSafetensors } from './safetensors.ts';
export type { DType, TensorInfo, TensorToWrite } from './safetensors.ts';
export { clampRange, filesFromMemory, missingFile, readJson } from './files.ts';
export type { ModelFiles } from './files.ts';
export { filesFromPicked } from './files-picked.ts';
export { filesFromUrl, hubUrl } from './files-url.ts';
export type { DownloadProgress } from './files-url.ts';
export { openTensorSource, SHARD_INDEX, SINGLE_FILE } from './tensor-source.ts';
export type { TensorSource } from './tensor-source.ts';
export { openModel } from './open-model.ts';
export type { OpenedModel } from './open-model.ts';
export { expectedShapes, weightNames } from './weight-names.ts';
export { initialWeight, randomWeight } from './random-weights.ts';
export type { LayerWeightNames } from './weight-names.ts';
export { ADAPTER_CONFIG, ADAPTER_WEIGHTS, initLoraAdapter, isTargeted, linearModules, loraScale, readPeftAdapter, writePeftAdapter } from './lora.ts';
export type { LoraAdapter, LoraWeights } from './lora.ts';
export { mergeLora } from './merge-lora.ts';
