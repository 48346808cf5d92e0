// The one rule every request value passes before any reader or handler sees it, on every store: bounded
// nesting, no NUL character, no unpaired UTF-16 surrogate. Deep nesting would overflow the stack of the
// recursive readers (GeoJSON, metadata); PostgreSQL refuses NUL in text and jsonb and lone surrogates in
// jsonb, where SQLite would store them, so without this rule the same request answered 500 on one store
// and 200 on the other. The walk is iterative, so a hostile body cannot overflow the stack here either.
import { InputError } from './input-error';

/** Deeper than any valid value (a MultiPolygon's coordinates are 4 arrays inside one object). */
export const MAX_DEPTH = 16;

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const FORBIDDEN = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function stringProblem(text: string): string | undefined {
  const m = FORBIDDEN.exec(text);
  if (!m) return undefined;
  return m[0] === '\u0000' ? 'must not contain the NUL character' : 'must not contain an unpaired UTF-16 surrogate';
}

/**
 * Throws BadRequest naming the parameter (the top-level field, query parameter or path segment) that
 * breaks the rule. Object keys are checked like values.
 */
export function rejectHostile(values: Record<string, unknown>, where: string): void {
  for (const [param, value] of Object.entries(values)) {
    const name = param;
    const keyProblem = stringProblem(param);
    if (keyProblem) throw new InputError(where, `a ${where} parameter name ${keyProblem}`);
    const stack: Array<[unknown, number]> = [[value, 1]];
    while (stack.length > 0) {
      const [v, depth] = stack.pop() as [unknown, number];
      if (typeof v === 'string') {
        const problem = stringProblem(v);
        if (problem) throw new InputError(name, `${name} ${problem}`);
      } else if (typeof v === 'object' && v !== null) {
        if (depth > MAX_DEPTH) throw new InputError(name, `${name} is nested more than ${MAX_DEPTH} levels deep`);
        for (const [k, child] of Object.entries(v)) {
          const problem = stringProblem(k);
          if (problem) throw new InputError(name, `${name} has a key that ${problem}`);
          stack.push([child, depth + 1]);
        }
      }
    }
  }
}
