// The imported extracts (GET /v1/data/extracts), asked once per page for the roads, the base map and the
// coverage outline: all three start after the first draw, and one answer serves them.
import type { Api } from '../api';

export interface ImportedExtract {
  name: string;
  bbox: [number, number, number, number];
  /** The box the extract's file says it covers, else its nodes' box (older gateways send none). */
  coverage?: [number, number, number, number];
  stages: Record<string, unknown>;
}

const asked = new WeakMap<Api, Promise<ImportedExtract[]>>();

export function importedExtracts(api: Api): Promise<ImportedExtract[]> {
  let answer = asked.get(api);
  if (!answer) {
    answer = api.get('/v1/data/extracts').then((b) => (b.extracts ?? []) as ImportedExtract[]).catch(() => []);
    asked.set(api, answer);
  }
  return answer;
}
