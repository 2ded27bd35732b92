/**
 * The wire sends some lists as a bare object when they hold one item (DESIGN §3). A fresh array is returned
 * so callers may sort or push without touching the parsed response. T must not itself be an array type.
 */
export function asArray<T>(value: T | readonly T[] | null | undefined): T[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return [...(value as readonly T[])];
  return [value as T];
}

/** The wire's inverse of asArray: one item goes out as the item itself, more as a list. */
export function oneOrMany<T>(list: readonly T[]): T | T[] {
  return list.length === 1 ? list[0]! : [...list];
}
