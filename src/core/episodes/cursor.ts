import { BatonError } from '../errors/index.ts';

/**
 * Episodes are ordered by (createdAt, id): a total order, so a page boundary is one position that stays
 * put however many episodes are added before or after it.
 */
export interface Position {
  createdAt: string;
  id: string;
}

export type Order = 'newest' | 'oldest';

export function comparePositions(a: Position, b: Position): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}

// An ISO time never holds a space, so the first space splits the two parts whatever the id holds.
export function encodeCursor(p: Position): string {
  return `${p.createdAt} ${p.id}`;
}

export function decodeCursor(cursor: string): Position {
  const space = cursor.indexOf(' ');
  if (space <= 0 || space === cursor.length - 1) {
    throw new BatonError({
      code: 'data/invalid',
      message: `Not an episode page cursor: "${cursor}". Pass back the nextCursor of the previous page unchanged.`,
    });
  }
  return { createdAt: cursor.slice(0, space), id: cursor.slice(space + 1) };
}
