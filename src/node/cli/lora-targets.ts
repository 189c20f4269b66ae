/**
 * --targets, the modules a new LoRA adapter adapts (baton adapter init, baton train), in PEFT's short
 * names. Each of the two adds the default, core's TRAINING_DEFAULTS.loraTargets: taken here, core/rl
 * would load the training stack into every command.
 */
import { flag } from './flags.ts';
import { CliError } from './io.ts';

/** PEFT's short names for the seven projections LoRA can adapt. */
const PROJECTIONS = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'];

function targetsOf(value: string): string[] {
  if (value === 'all') return PROJECTIONS;
  const targets = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = targets.filter((t) => !PROJECTIONS.includes(t));
  if (targets.length === 0 || unknown.length > 0) {
    throw new CliError(`--targets takes ${PROJECTIONS.join(', ')} or "all"${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`, 2);
  }
  return targets;
}

export const LORA_TARGETS_FLAG = flag({
  arg: 'LIST',
  help: `modules to adapt, comma-separated: ${PROJECTIONS.join(', ')}, or "all"; the default is PEFT's for Qwen and Llama`,
  read: targetsOf,
});
