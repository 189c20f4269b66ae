/**
 * Which keys each query row of a packed training pass attends. A training micro-batch is packed into
 * blocks of rows, one per prompt that some of its sequences share: the prompt's first P - 1 tokens once
 * (the shared rows), then one segment per sequence, its last prompt token and its completion but the
 * last token (the rows whose logits predict a completion token). A shared row attends the block's
 * shared rows up to itself (causal); a segment row attends all the block's shared rows and its own
 * segment up to itself, never another sequence's. A sequence that shares its prompt with no other is a
 * block of one segment: the causal attention of that sequence alone.
 * The rule is written per row as four u32, read by attention.ref.ts and the training kernels
 * (attentionTrainingForward, attentionBackwardQuery, attentionBackwardKeyValue):
 *   [prefixStart, prefixEnd, segmentStart, seenUntil]
 * row t attends keys prefixStart .. prefixEnd - 1 and segmentStart .. t; key t is attended by the
 * rows t .. seenUntil - 1 (the end of its block for a shared row, of its segment otherwise).
 */

/** A block of packed rows: `shared` rows of a prompt, then segments of these lengths. */
export interface PackedBlock {
  readonly shared: number;
  readonly segments: readonly number[];
}

export const VISIBILITY_WIDTH = 4;

/** The (T, 4) rule of rows packed block after block, T the blocks' total rows. */
export function packedVisibility(blocks: readonly PackedBlock[]): Uint32Array {
  const rows = blocks.reduce((n, b) => n + b.shared + b.segments.reduce((a, c) => a + c, 0), 0);
  const rule = new Uint32Array(rows * VISIBILITY_WIDTH);
  let t = 0;
  const put = (prefixStart: number, prefixEnd: number, segmentStart: number, seenUntil: number) =>
    rule.set([prefixStart, prefixEnd, segmentStart, seenUntil], VISIBILITY_WIDTH * t++);
  for (const { shared, segments } of blocks) {
    const start = t;
    const end = start + shared + segments.reduce((a, c) => a + c, 0);
    while (t < start + shared) put(start, start, start, end);
    for (const n of segments) {
      const segmentStart = t;
      while (t < segmentStart + n) put(start, start + shared, segmentStart, segmentStart + n);
    }
  }
  return rule;
}
