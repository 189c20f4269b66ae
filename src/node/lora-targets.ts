import { TRAINING_DEFAULTS } from '../core/rl/index.ts';
import { CliError } from './io.ts';

/** PEFT's short names for the seven projections LoRA can adapt. */
export const PROJECTIONS = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'];

/** --targets: a comma list of PROJECTIONS or "all"; absent, q_proj and v_proj (PEFT's default for Qwen and Llama). */
export function parseTargets(value: string | undefined): string[] {
  if (value === undefined) return [...TRAINING_DEFAULTS.loraTargets];
  if (value === 'all') return PROJECTIONS;
  const targets = value.split(',').map((t) => t.trim()).filter(Boolean);
  const unknown = targets.filter((t) => !PROJECTIONS.includes(t));
  if (targets.length === 0 || unknown.length > 0) {
    throw new CliError(`--targets takes ${PROJECTIONS.join(', ')} or "all"${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`, 2);
  }
  return targets;
}
