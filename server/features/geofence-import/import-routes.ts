// POST /v1/geofences/import: a geofence CSV uploaded with a secret key, imported into the key's
// environment. The whole file is checked first; a file with any problem writes nothing and answers
// 400 with every problem (row, column, message). A valid file is written in one transaction.
import type { Route } from '../../http/route';
import type { GeofenceImporter, ImportReport } from './import-service';
import { readUploadedCsv } from './upload-body';

/** Problems listed in one HTTP answer; errorCount still counts them all. */
export const HTTP_MAX_ERRORS = 10_000;

export interface PublicImportReport extends ImportReport {
  environment: 'test' | 'live';
}

export function importReport(report: ImportReport, live: boolean): PublicImportReport {
  return { environment: live ? 'live' : 'test', ...report };
}

export function importRoutes(importer: GeofenceImporter, uploadMaxBytes: number): Route[] {
  return [
    {
      method: 'POST', path: '/v1/geofences/import', auth: 'secret', rate: { name: 'geofence-import', perSecond: 2 },
      handler: async (ctx) => {
        const csv = await readUploadedCsv(ctx.stream, ctx.headers, uploadMaxBytes);
        const report = await importer.importCsv(ctx.scope, csv, { maxErrors: HTTP_MAX_ERRORS, now: ctx.now });
        const body = { import: importReport(report, ctx.scope.live) };
        if (report.ok) return { body };
        const shown = report.errors.length < report.errorCount ? ` (the first ${report.errors.length} are listed)` : '';
        return {
          status: 400,
          meta: { param: 'file', message: `The file has ${report.errorCount} problem${report.errorCount === 1 ? '' : 's'}${shown}; nothing was imported` },
          body,
        };
      },
    },
  ];
}
