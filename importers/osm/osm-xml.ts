// Reads OSM XML (`<osm><node/><way><nd/><tag/></way><relation><member/></relation></osm>`) as it
// streams in, with saxes. Coordinates and ids come from attributes; `action="delete"` entities (JOSM
// files) are left out. Anything that is not well-formed XML with an <osm> root is an OsmFormatError.
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { OsmFormatError, type OsmVisitor } from './osm-visitor';
import type { BlockCounts } from './pbf-primitive-block';
import type { OsmMember, OsmMemberType } from './stage';

type Entity =
  | { kind: 'node'; id: number; lon: number; lat: number; tags: Record<string, string> | null }
  | { kind: 'way'; id: number; refs: number[]; tags: Record<string, string> }
  | { kind: 'relation'; id: number; members: OsmMember[]; tags: Record<string, string> };

function number(tag: SaxesTagPlain, name: string): number {
  const text = tag.attributes[name];
  const value = text === undefined ? NaN : Number(text);
  if (!Number.isFinite(value)) throw new OsmFormatError(`OSM XML: <${tag.name}> has no valid ${name} attribute${text === undefined ? '' : ` (${JSON.stringify(text.slice(0, 40))})`}`);
  return value;
}

/** A push parser: feed it the file's bytes in order, then end it; entities go to the visitor as they close. */
export interface OsmXmlParser {
  write(chunk: Buffer): void;
  end(): void;
}

export function osmXmlParser(visitor: OsmVisitor, counts: BlockCounts): OsmXmlParser {
  const parser = new SaxesParser({ xmlns: false });
  let depth = 0;
  let sawRoot = false;
  let current: Entity | null = null;
  let deleted = false;
  let failure: Error | null = null;

  parser.on('error', (err) => {
    failure ??= new OsmFormatError(`not valid OSM XML: ${err.message}`);
  });
  parser.on('opentag', (tag) => {
    depth++;
    if (failure) return;
    try {
      if (depth === 1) {
        if (tag.name !== 'osm') throw new OsmFormatError(`not an OSM XML file: the root element is <${tag.name}>, not <osm>`);
        sawRoot = true;
        return;
      }
      if (depth === 2) {
        deleted = tag.attributes.action === 'delete';
        if (tag.name === 'node') current = { kind: 'node', id: number(tag, 'id'), lon: number(tag, 'lon'), lat: number(tag, 'lat'), tags: null };
        else if (tag.name === 'way') current = { kind: 'way', id: number(tag, 'id'), refs: [], tags: {} };
        else if (tag.name === 'relation') current = { kind: 'relation', id: number(tag, 'id'), members: [], tags: {} };
        else current = null;
        return;
      }
      if (depth !== 3 || current === null) return;
      if (tag.name === 'tag') {
        const k = tag.attributes.k;
        const v = tag.attributes.v;
        if (k === undefined || v === undefined) throw new OsmFormatError('OSM XML: <tag> without k or v');
        if (current.kind === 'node') (current.tags ??= {})[k] = v;
        else current.tags[k] = v;
      } else if (tag.name === 'nd' && current.kind === 'way') current.refs.push(number(tag, 'ref'));
      else if (tag.name === 'member' && current.kind === 'relation') {
        const type = tag.attributes.type as OsmMemberType;
        if (type !== 'node' && type !== 'way' && type !== 'relation') throw new OsmFormatError(`OSM XML: relation ${current.id} has a member of unknown type ${JSON.stringify(type)}`);
        current.members.push({ type, ref: number(tag, 'ref'), role: tag.attributes.role ?? '' });
      }
    } catch (err) {
      failure = err as Error;
    }
  });
  parser.on('closetag', () => {
    if (depth === 2 && current !== null && failure === null && !deleted) {
      try {
        emit(current, visitor, counts);
      } catch (err) {
        failure = err as Error;
      }
    }
    if (depth === 2) current = null;
    depth--;
  });

  const decoder = new StringDecoder('utf8');
  return {
    write(chunk) {
      parser.write(decoder.write(chunk));
      if (failure) throw failure;
    },
    end() {
      parser.write(decoder.end());
      parser.close();
      if (failure) throw failure;
      if (!sawRoot) throw new OsmFormatError('not an OSM XML file: no <osm> element');
    },
  };
}

export async function readOsmXml(source: AsyncIterable<Buffer>, visitor: OsmVisitor, counts: BlockCounts, signal?: AbortSignal): Promise<void> {
  const parser = osmXmlParser(visitor, counts);
  for await (const chunk of source) {
    if (signal?.aborted) throw signal.reason;
    parser.write(chunk);
  }
  parser.end();
}

function emit(e: Entity, visitor: OsmVisitor, counts: BlockCounts): void {
  if (e.kind === 'node') {
    if (!visitor.node) return;
    counts.nodes++;
    visitor.node(e.id, e.lon, e.lat, e.tags ? Object.freeze(e.tags) : null);
  } else if (e.kind === 'way') {
    if (!visitor.way) return;
    counts.ways++;
    visitor.way({ id: e.id, refs: e.refs, tags: Object.freeze(e.tags) });
  } else {
    if (!visitor.relation) return;
    counts.relations++;
    visitor.relation({ id: e.id, members: Object.freeze(e.members), tags: Object.freeze(e.tags) });
  }
}
