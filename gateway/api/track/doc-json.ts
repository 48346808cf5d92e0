// A tracked user and its events serialised once per update (#14): the text of each as the API shows it
// serves the track answer, and the stored document's text is that text with the fields the API does not
// show appended (a user's `_visits`, an event's `userRef`). JSON of a ~4 KiB user costs 20–30 µs each
// time; the track path made it twice, and every event twice.
import { REVISION_FIELD, type Doc } from '../../../adapters/store/port';

export interface DocJson {
  /** The document as the API shows it: JSON.stringify of it without its hidden fields. */
  shown: string;
  /** The stored document: every field but the revision (which lives in its own column), shown ones first. */
  stored: string;
}

/** What publicView() leaves out of a user: fields starting with `_`, but `_id`. */
const hiddenOfUser = (key: string): boolean => key !== '_id' && key.startsWith('_');

/** What publicEvent() leaves out of an event. */
const hiddenOfEvent = (key: string): boolean => key === 'userRef' || key === 'updatedAt';

export const userJson = (user: Doc): DocJson => docJson(user, hiddenOfUser);
export const eventJson = (event: Doc): DocJson => docJson(event, hiddenOfEvent);

function docJson(doc: Doc, hidden: (key: string) => boolean): DocJson {
  const shownDoc: Record<string, unknown> = {};
  const hiddenKeys: string[] = [];
  for (const key of Object.keys(doc)) {
    if (key === REVISION_FIELD) continue;
    if (hidden(key)) hiddenKeys.push(key);
    else shownDoc[key] = doc[key];
  }
  const shown = JSON.stringify(shownDoc);
  let rest = '';
  for (const key of hiddenKeys) {
    const text = JSON.stringify(doc[key]) as string | undefined;
    if (text !== undefined) rest += `,${JSON.stringify(key)}:${text}`;
  }
  if (rest === '') return { shown, stored: shown };
  return { shown, stored: shown === '{}' ? `{${rest.slice(1)}}` : `${shown.slice(0, -1)}${rest}}` };
}
