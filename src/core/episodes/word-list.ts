/** Items as a sentence lists them: "a", "a and b", "a, b and c". */
export function wordList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
