// A PBF decoding thread (pbf-decode-pool.ts): inflates the blobs it is sent and decodes them into
// columns, answering each request with its own sequence number; the pool puts the answers back in order.
import { parentPort } from 'node:worker_threads';
import { OsmFormatError } from './osm-visitor';
import { decodeBlobSync } from './pbf-blobs';
import type { DecodeReply, DecodeRequest } from './pbf-decode-pool';
import { columnBuffers, decodePrimitiveBlock } from './pbf-primitive-block';

const port = parentPort!;
port.on('message', (m: DecodeRequest) => {
  let reply: DecodeReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const blob = Buffer.from(m.blob.buffer, m.blob.byteOffset, m.blob.byteLength);
    const columns = decodePrimitiveBlock(decodeBlobSync({ type: 'OSMData', blob, offset: m.offset }), m.kinds);
    reply = { seq: m.seq, columns };
    transfer = columnBuffers(columns);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    reply = { seq: m.seq, error: { message, kind: err instanceof OsmFormatError ? 'format' : err instanceof RangeError ? 'range' : 'other' } };
  }
  port.postMessage(reply, transfer);
});
