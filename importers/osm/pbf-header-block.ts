// The OSMHeader block of a PBF file: which features a reader must support to read the rest. We refuse
// what we cannot read (history files, unknown required features) rather than import it wrongly.
import Pbf from 'pbf';
import { OsmFormatError } from './osm-visitor';
import { eachField } from './pbf-fields';

const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

export interface PbfHeader {
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram?: string;
}

export function readHeaderBlock(data: Uint8Array): PbfHeader {
  const header: PbfHeader = { requiredFeatures: [], optionalFeatures: [] };
  const pbf = new Pbf(data);
  try {
    eachField(pbf, pbf.length, (tag) => {
      if (tag === 4) header.requiredFeatures.push(pbf.readString());
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
