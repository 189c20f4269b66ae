/**
 * What the commands share of the CLI: their input and output, usage errors, the flag tables (and the one flag
 * two commands share, a new LoRA adapter's --targets), and the CLI as one bundled file.
 */
export { bundleCli, bundleScript, webgpuVersion } from './bundle.ts';
export {
  atLeast,
  choice,
  flag,
  int,
  notNegative,
  num,
  optionsHelp,
  parseFlags,
  positive,
  positiveInteger,
  printHelp,
  text,
  texts,
  toggle,
  type FlagTable,
  type FlagValues,
} from './flags.ts';
export { CliError, processIo, readTextFlag, type CliIo } from './io.ts';
export { LORA_TARGETS_FLAG } from './lora-targets.ts';
