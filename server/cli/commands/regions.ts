// waymark regions import | list | remove: the operator's boundaries (DMAs, counties, ZIP polygons, sales
// territories…) in <dataDir>/regions/, straight on the data directory. A gateway running on the same
// directory picks changes up by itself: it looks at the directory at most every
// WAYMARK_REGIONS_RELOAD_CHECK_MS (default 1 s) and re-reads it when a file changed. No restart.
//
// An import is staged in a directory of its own and moved into place only when it succeeded, so a
// failed or empty import (a wrong --code-property, say) leaves the previous layer of that type alone.
import fs from 'node:fs';
import path from 'node:path';
import {
  boundaryDirectory, boundaryFilePath, isValidRegionType, parseBoundaryFile,
} from '../../../core/formats/boundaries/boundary-file';
import { importBoundaries, type ImportBoundariesResult } from '../../../importers/boundaries/import-boundaries';
import type { GatewayConfig } from '../../config';
import { type ParsedArgs, NotFoundError, UsageError, flag, hasFlag, unknownSubcommand } from '../args';
import type { CliOutput } from '../output';
import { progressBar } from '../progress';

export const REGIONS_USAGE = `waymark regions import FILE --type TYPE [--name-property P] [--code-property P] [--object O] [--strict] [--json]
waymark regions list [--json]
waymark regions remove --type TYPE [--json]
  (import: GeoJSON FeatureCollection or TopoJSON of Polygon/MultiPolygon in longitude/latitude degrees;
   TYPE dma, county, … or country/state/postalCode to override the bundled data where it has polygons;
   features that cannot be used are listed and skipped (with --strict any makes the import fail);
   exit 1 when nothing was imported, the previous layer of TYPE then stays)`;

/** How many skipped features are printed one per line; the JSON output lists them all. */
const SKIPPED_SHOWN = 20;

export async function regionsCommand(config: GatewayConfig, args: ParsedArgs, out: CliOutput): Promise<number> {
  const sub = args.words[1];
  switch (sub) {
    case 'import':
      return importCommand(config, args, out);
    case 'list':
      return listCommand(config, out);
    case 'remove':
      return removeCommand(config, args, out);
    default:
      throw unknownSubcommand('regions', sub, REGIONS_USAGE);
  }
}

function readType(args: ParsedArgs): string {
  const type = flag(args, 'type');
  if (type === undefined || type === 'true') throw new UsageError(`--type is required (dma, county, …)\n${REGIONS_USAGE}`);
  if (!isValidRegionType(type)) throw new UsageError(`--type ${JSON.stringify(type)} must be letters, digits, _ or -, starting with a letter`);
  return type;
}

function optionalFlag(args: ParsedArgs, name: string): string | undefined {
  const value = flag(args, name);
  if (value === 'true') throw new UsageError(`--${name} needs a value`);
  return value;
}

async function importCommand(config: GatewayConfig, args: ParsedArgs, out: CliOutput): Promise<number> {
  const file = args.words[2];
  if (file === undefined) throw new UsageError(`regions import needs a FILE\n${REGIONS_USAGE}`);
  const type = readType(args);
  const strict = hasFlag(args, 'strict');
  if (!fs.existsSync(file)) throw new Error(`cannot read ${file}: no such file`);

  fs.mkdirSync(config.dataDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(config.dataDir, '.regions-import-'));
  const progress = out.json ? undefined : progressBar('Reading features');
  const started = process.hrtime.bigint();
  let result: ImportBoundariesResult;
  try {
    try {
      result = await importBoundaries({
        file: path.resolve(file),
        type,
        nameProperty: optionalFlag(args, 'name-property'),
        codeProperty: optionalFlag(args, 'code-property'),
        object: optionalFlag(args, 'object'),
        dataDir: staging,
        onProgress: progress === undefined ? undefined : (done, total) => progress.update(done, total),
      });
    } catch (err) {
      progress?.finish('failed');
      throw err;
    }
    progress?.finish(`${result.imported} regions, ${result.skipped.length} features skipped`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const target = boundaryFilePath(config.dataDir, type);
    const failed = result.imported === 0 || (strict && result.skipped.length > 0);
    out.data({ file, type, target, imported: result.imported, skipped: result.skipped, seconds: Math.round(seconds * 1000) / 1000, replaced: !failed });
    for (const s of result.skipped.slice(0, SKIPPED_SHOWN)) out.print(`feature ${s.index}: skipped: ${s.reason}`);
    if (result.skipped.length > SKIPPED_SHOWN) out.print(`… ${result.skipped.length - SKIPPED_SHOWN} more skipped features (--json lists all)`);
    if (failed) {
      const why = result.imported === 0 ? 'no usable feature' : `${result.skipped.length} skipped feature(s) and --strict`;
      out.print(`Nothing was imported from ${file}: ${why}. ${fs.existsSync(target) ? `The previous ${type} layer stays.` : ''}`.trim());
      return 1;
    }
    await fs.promises.mkdir(boundaryDirectory(config.dataDir), { recursive: true });
    // Same file system (both under the data directory), so the rename is atomic: a gateway reads the old or the new layer.
    await fs.promises.rename(boundaryFilePath(staging, type), target);
    const skipped = result.skipped.length > 0 ? `, ${result.skipped.length} feature(s) skipped` : '';
    out.print(`Imported ${result.imported} ${type} regions from ${file} in ${seconds.toFixed(2)} s${skipped}.`);
    out.print(`Written to ${target}; a gateway running on this data directory uses it within WAYMARK_REGIONS_RELOAD_CHECK_MS (default 1 s).`);
    return 0;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

interface LayerInfo {
  type: string;
  file: string;
  regions: number;
  source?: { file: string; sha256: string };
  bytes: number;
  modifiedAt: string;
  problem?: string;
}

function layers(config: GatewayConfig): LayerInfo[] {
  const dir = boundaryDirectory(config.dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort().map((name) => {
    const file = path.join(dir, name);
    const st = fs.statSync(file);
    const info: LayerInfo = { type: name.slice(0, -5), file, regions: 0, bytes: st.size, modifiedAt: st.mtime.toISOString() };
    try {
      const parsed = parseBoundaryFile(fs.readFileSync(file, 'utf8'), file);
      info.regions = parsed.features.length;
      info.source = parsed.source;
    } catch (err) {
      info.problem = err instanceof Error ? err.message : String(err);
    }
    return info;
  });
}

function listCommand(config: GatewayConfig, out: CliOutput): number {
  const found = layers(config);
  out.data({ directory: boundaryDirectory(config.dataDir), layers: found });
  if (found.length === 0) out.print(`No imported boundaries in ${boundaryDirectory(config.dataDir)} (bundled countries, US states and postal codes only).`);
  for (const l of found) {
    const from = l.source ? ` from ${l.source.file}` : '';
    out.print(l.problem ? `${l.type.padEnd(12)} UNUSABLE: ${l.problem}` : `${l.type.padEnd(12)} ${String(l.regions).padStart(6)} regions${from} (${l.modifiedAt})`);
  }
  return found.some((l) => l.problem !== undefined) ? 1 : 0;
}

function removeCommand(config: GatewayConfig, args: ParsedArgs, out: CliOutput): number {
  const type = readType(args);
  const file = boundaryFilePath(config.dataDir, type);
  if (!fs.existsSync(file)) throw new NotFoundError(`no ${type} layer to remove (see waymark regions list)`);
  fs.rmSync(file);
  out.data({ type, file, removed: true });
  out.print(`Removed the ${type} layer (${file}).`);
  return 0;
}
