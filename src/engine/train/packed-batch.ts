/**
 * A training micro-batch packed so that a prompt shared by several sequences (a GRPO group: G
 * completions of one prompt) is forwarded and backpropagated once. Sequences with identical prompts
 * (ids before completionStart) form a block: the prompt's first P - 1 tokens once (shared rows), then
 * per sequence a segment of its last prompt token and its completion but the last token, so that each
 * segment row's logits predict one completion token of its own sequence (the last token predicts
 * nothing and is left out). Every row keeps its own RoPE position, and attends what
 * ../kernels/attention-visibility.ts says: its prompt's rows and its own segment. Each sequence's
 * logprobs are then exactly those of its unshared causal pass. A sequence whose prompt no other shares
 * is a block of one segment: its own causal pass, one row shorter.
 */
import type { ScoredSequence } from '../../core/rl/index.ts';
import { packedVisibility, type PackedBlock } from '../kernels/index.ts';

export interface PackedBatch {
  /** Packed rows. */
  readonly T: number;
  readonly ids: Uint32Array; // (T)
  readonly targets: Uint32Array; // (T) the next token of each row's own sequence
  readonly positions: Uint32Array; // (T) each row's position in its sequence
  readonly visibility: Uint32Array; // (T, 4) attention-visibility.ts
  /** Per sequence, the row of its first completion target: its n completion tokens are rows first .. first + n - 1. */
  readonly completionRows: readonly number[];
}

export function packSequences(sequences: readonly ScoredSequence[]): PackedBatch {
  const byPrompt = new Map<string, number[]>();
  sequences.forEach((s, b) => {
    const key = s.ids.slice(0, s.completionStart).join(',');
    byPrompt.set(key, [...(byPrompt.get(key) ?? []), b]);
  });
  const groups = [...byPrompt.values()];
  const blocks: PackedBlock[] = groups.map((members) => ({
    shared: sequences[members[0]].completionStart - 1,
    segments: members.map((b) => sequences[b].ids.length - sequences[b].completionStart),
  }));
  const visibility = packedVisibility(blocks);
  const T = visibility.length / 4;
  const ids = new Uint32Array(T);
  const targets = new Uint32Array(T);
  const positions = new Uint32Array(T);
  const completionRows: number[] = [];
  let row = 0;
  // Rows of sequence s's tokens from..to - 1, each with the next token as its target.
  const put = (s: ScoredSequence, from: number, to: number) => {
    for (let i = from; i < to; i++, row++) {
      ids[row] = s.ids[i];
      targets[row] = s.ids[i + 1];
      positions[row] = i;
    }
  };
  for (const members of groups) {
    const first = sequences[members[0]];
    put(first, 0, first.completionStart - 1);
    for (const b of members) {
      const s = sequences[b];
      completionRows[b] = row;
      put(s, s.completionStart - 1, s.ids.length - 1);
    }
  }
  return { T, ids, targets, positions, visibility, completionRows };
}
