// JSON already serialised, to be placed in an answer as it is. The track answer carries a user of
// ~4 KiB that the update serialised once for its stored row; serialising it again for the answer cost as
// much as the serialisation itself (#14).
//
// The envelope splices a JsonText that is a top-level member of a body; anywhere else JSON.stringify
// meets it through toJSON(), which parses it back: slower, never wrong.
export class JsonText {
  /** `text` must be valid JSON (what JSON.stringify returned). */
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * JSON.stringify(value) for an object whose top-level members may be JsonText: those are written as
 * their text, the others as JSON.stringify writes them (members it would leave out are left out).
 */
export function stringifyWithText(value: Record<string, unknown>): string {
  let hasText = false;
  for (const key in value) if (value[key] instanceof JsonText) hasText = true;
  if (!hasText) return JSON.stringify(value);
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const text = member instanceof JsonText ? member.text : (JSON.stringify(member) as string | undefined);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}
