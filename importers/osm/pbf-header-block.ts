// The OSMHeader block of a PBF file: which features a reader must support to read the rest. We refuse
// what we cannot read (history files, unknown required features) rather than import it wrongly.
import Pbf from 'pbf';
import { OsmFormatError } from './osm-visitor';
import { eachField, fieldEnd } from './pbf-fields';

const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

export interface PbfHeader {
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram?: string;
  /** The box the file declares it covers (HeaderBBox), degrees [west, south, east, north]; an extract's cut. */
  bbox?: [number, number, number, number];
}

/** HeaderBBox: left, right, top, bottom in nanodegrees. */
function readHeaderBbox(pbf: Pbf): [number, number, number, number] | undefined {
  const end = fieldEnd(pbf);
  const v: number[] = [NaN, NaN, NaN, NaN];
  eachField(pbf, end, (tag) => {
    if (tag >= 1 && tag <= 4) v[tag - 1] = pbf.readSVarint() / 1e9;
  });
  const [left, right, top, bottom] = v;
  return [left, bottom, right, top].every(Number.isFinite) && left < right && bottom < top ? [left, bottom, right, top] : undefined;
}

export function readHeaderBlock(data: Uint8Array): PbfHeader {
  const header: PbfHeader = { requiredFeatures: [], optionalFeatures: [] };
  const pbf = new Pbf(data);
  try {
    eachField(pbf, pbf.length, (tag) => {
      if (tag === 1) header.bbox = readHeaderBbox(pbf);
      else if (tag === 4) header.requiredFeatures.push(pbf.readString());
      else if (tag === 5) header.optionalFeatures.push(pbf.readString());
      else if (tag === 16) header.writingProgram = pbf.readString();
    });
  } catch {
    throw new OsmFormatError('corrupt PBF file: unreadable OSMHeader block');
  }
  const unsupported = header.requiredFeatures.filter((f) => !SUPPORTED_FEATURES.has(f));
  if (unsupported.length > 0) {
    const history = unsupported.includes('HistoricalInformation') ? ' (a history file: import a current extract instead)' : '';
    throw new OsmFormatError(`the PBF file needs features this reader does not support: ${unsupported.join(', ')}${history}`);
  }
  return header;
}
