/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 32;

export type JsonShapeProblem = 'too-deep' | 'ill-formed-text';

/**
 * Walks a parsed JSON value without recursion: a body nested deeper than
 * MAX_JSON_DEPTH, or holding a string (or key) with a lone surrogate, is
 * refused before anything recursive (validation, hashing) touches it.
 */
export function jsonShapeProblem(value: unknown): JsonShapeProblem | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      if (!current.isWellFormed()) return 'ill-formed-text';
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return 'too-deep';
    for (const [key, child] of Object.entries(current)) {
      if (!key.isWellFormed()) return 'ill-formed-text';
      stack.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}
