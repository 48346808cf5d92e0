// One loop over the fields of a protobuf message, with typed callbacks (the `pbf` package's own
// readFields types its callback arguments as optional). A field the callback leaves unread is skipped.
import Pbf from 'pbf';

export function eachField(pbf: Pbf, end: number, onField: (tag: number) => void): void {
  while (pbf.pos < end) {
    const key = pbf.readVarint();
    pbf.type = key & 7;
    const start = pbf.pos;
    onField(key >> 3);
    if (pbf.pos === start) pbf.skip(key);
  }
  if (pbf.pos !== end) throw new RangeError('a protobuf field runs past the end of its message');
}

/** End of the length-delimited field at the cursor; the cursor moves to its first byte. */
export function fieldEnd(pbf: Pbf): number {
  const end = pbf.readVarint() + pbf.pos;
  if (end > pbf.length) throw new RangeError('a protobuf field runs past the end of its message');
  return end;
}
