/** Small settings live in localStorage as JSON; a missing, unreadable or blocked entry reads as undefined. */
export function loadJson(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function saveJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private modes may refuse storage: the app still works for this session.
  }
}
