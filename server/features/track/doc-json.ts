// A tracked user and its events serialised once per update (#14): the text of each as the API shows it
// serves the track answer, and the stored document's text is that text with the fields the API does not
// show appended (a user's `_visits`, an event's `userRef`). JSON of a ~4 KiB user costs 20–30 µs each
// time; the track path made it twice, and every event twice.
//
// Most of a user's text is its `geofences` list, and each entry of it is one frozen object per geofence
// the index holds (track-service.ts, userGeofence), shared by every user inside that geofence; an
// event's `geofence` likewise. So a frozen object's text is made once and kept (frozenText): in the
// bench's steady updates this was ~55 µs of a track's event-loop time, two thirds of it those lists.
import { REVISION_FIELD, type DocBase } from '../../../ports/store';
import { isHiddenEventField, isInternalField } from '../../../core/model/views';

export interface DocJson {
  /** The document as the API shows it: JSON.stringify of it without its hidden fields. */
  shown: string;
  /** The stored document: every field but the revision (which lives in its own column), shown ones first. */
  stored: string;
}

// What the API shows of each is said in core/model/views.ts, whose rules these are.
export const userJson = (user: DocBase): DocJson => docJson(user, isInternalField);
export const eventJson = (event: DocBase): DocJson => docJson(event, isHiddenEventField);

/**
 * Texts of frozen objects, by object. Freezing one is the promise that it never changes, nested values
 * included (the index replaces a geofence, it never edits one), so its text may be kept as long as it is.
 */
const frozenTexts = new WeakMap<object, string>();

function frozenText(value: object): string {
  let text = frozenTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    frozenTexts.set(value, text);
  }
  return text;
}

const isFrozenObject = (value: unknown): value is object => typeof value === 'object' && value !== null && Object.isFrozen(value);

/** JSON.stringify(value), with the kept text of a frozen object, or of each frozen item of an array. */
function valueText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (!Array.isArray(value)) return Object.isFrozen(value) ? frozenText(value) : JSON.stringify(value);
  if (!value.some(isFrozenObject)) return JSON.stringify(value);
  let text = '[';
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    // As JSON.stringify writes array items: what it cannot write (undefined, a function) is null.
    text += `${i === 0 ? '' : ','}${isFrozenObject(item) ? frozenText(item) : (JSON.stringify(item) as string | undefined) ?? 'null'}`;
  }
  return `${text}]`;
}

/** Top-level keys' texts: documents of one kind have the same few keys, written by this code. */
const keyTexts = new Map<string, string>();
const MAX_KEY_TEXTS = 1_000;

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (keyTexts.size < MAX_KEY_TEXTS) keyTexts.set(key, text);
  }
  return text;
}

function docJson(doc: DocBase, hidden: (key: string) => boolean): DocJson {
  // A document's fields by name (DocBase, a type alias, reads as a record without a cast).
  const fields: Readonly<Record<string, unknown>> = doc;
  // Built by concatenation only, never sliced: slicing a concatenated string copies it whole (V8
  // flattens it), and each text is copied once anyway when it is written out.
  let body = '{';
  let separator = '';
  let rest = '';
  for (const key of Object.keys(doc)) {
    if (key === REVISION_FIELD) continue;
    const text = valueText(fields[key]);
    if (text === undefined) continue;
    if (hidden(key)) {
      rest += `,${keyText(key)}:${text}`;
    } else {
      body += `${separator}${keyText(key)}:${text}`;
      separator = ',';
    }
  }
  const shown = `${body}}`;
  if (rest === '') return { shown, stored: shown };
  return { shown, stored: separator === '' ? `{${rest.slice(1)}}` : `${body}${rest}}` };
}
