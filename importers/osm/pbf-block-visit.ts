// Hands a decoded block's columns (pbf-primitive-block.ts) to a visitor, entity by entity in block order:
// nodes as plain fields, ways and relations with frozen tag objects made here, on the visiting thread
// (objects cannot be handed between threads without copying them one by one).
import type { OsmVisitor } from './osm-visitor';
import { NODE_RUN, WAY_RUN, type BlockColumns, type BlockCounts, type EntityKinds } from './pbf-primitive-block';
import type { OsmMember, OsmMemberType, OsmTags } from './stage';

const MEMBER_TYPES: readonly OsmMemberType[] = ['node', 'way', 'relation'];
const EMPTY_TAGS: OsmTags = Object.freeze({});

export function kindsOf(visitor: OsmVisitor): EntityKinds {
  return { node: visitor.node !== undefined, way: visitor.way !== undefined, relation: visitor.relation !== undefined };
}

function tagsAt(c: BlockColumns, from: number, to: number): OsmTags {
  const tags: Record<string, string> = {};
  const { kv, strings } = c;
  for (let i = from; i < to; i += 2) tags[strings[kv[i]]!] = strings[kv[i + 1]]!;
  return Object.freeze(tags);
}

export function visitBlock(c: BlockColumns, visitor: OsmVisitor, counts: BlockCounts): void {
  let n = 0;
  let w = 0;
  let r = 0;
  for (let run = 0; run < c.runs.length; run += 2) {
    const kind = c.runs[run];
    const end = c.runs[run + 1];
    if (kind === NODE_RUN) {
      const node = visitor.node!;
      for (let k = 0; k < end; k++, n++) {
        const tags = c.nodeTagged[n] === 1 ? tagsAt(c, c.nodeTags[2 * n], c.nodeTags[2 * n + 1]) : null;
        counts.nodes++;
        node(c.nodeIds[n], c.nodeLons[n], c.nodeLats[n], tags);
      }
    } else if (kind === WAY_RUN) {
      const way = visitor.way!;
      for (let k = 0; k < end; k++, w++) {
        const from = c.wayTags[2 * w];
        const to = c.wayTags[2 * w + 1];
        counts.ways++;
        way({ id: c.wayIds[w], refs: c.wayRefs.subarray(c.wayRefStarts[w], c.wayRefStarts[w + 1]), tags: to > from ? tagsAt(c, from, to) : EMPTY_TAGS });
      }
    } else {
      const relation = visitor.relation!;
      for (let k = 0; k < end; k++, r++) {
        const members: OsmMember[] = [];
        for (let m = c.relationMembers[r]; m < c.relationMembers[r + 1]; m++) {
          members.push({ type: MEMBER_TYPES[c.memberTypes[m]], ref: c.memberRefs[m], role: c.strings[c.memberRoles[m]]! });
        }
        const from = c.relationTags[2 * r];
        const to = c.relationTags[2 * r + 1];
        counts.relations++;
        relation({ id: c.relationIds[r], members: Object.freeze(members), tags: to > from ? tagsAt(c, from, to) : EMPTY_TAGS });
      }
    }
  }
}
