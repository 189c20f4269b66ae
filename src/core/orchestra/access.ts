import type { Access } from '../workflow/index.ts';

/**
 * The earlier steps a step at `index` sees, in order. 'all' means every earlier step; a list keeps only
 * indices that point backwards (the parser already rejects forward references; this is the last guard).
 */
export function visibleSteps(access: Access, index: number): number[] {
  if (access === 'all') return Array.from({ length: index }, (_, i) => i);
  return [...new Set(access)].filter((i) => Number.isInteger(i) && i >= 0 && i < index).sort((a, b) => a - b);
}
