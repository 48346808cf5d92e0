// Nightly sync settings of a project: what the endpoint and the CLI accept, how they are stored, and
// what GET shows (never the secret access key). One settings document per project covers both
// environments: the test and live CSVs are separate sources under one protocol.
import { bucketNameProblem, regionProblem, s3Url, type AddressGuard } from '../../../ports/geofence-sources';
import type { SyncEnvironment } from '../../../core/geofence-sync/sync-report';
import { BadRequest } from '../../http/errors';
import { isAbsent, readBoolean, readString } from '../../http/params';

export type SyncProtocol = 'http' | 's3';

/** The settings as a caller gives them; every field optional except what `enabled` needs. */
export interface SyncSettingsInput {
  enabled: boolean;
  /** Normalised: addresses joined by ", ". */
  email?: string;
  protocol?: SyncProtocol;
  testUrl?: string;
  liveUrl?: string;
  bucketRegion?: string;
  bucketName?: string;
  testObjectKey?: string;
  liveObjectKey?: string;
  accessKeyId?: string;
  /** Plain; sealed before storing, never shown. */
  secretAccessKey?: string;
}

/** The fields a caller sets, in the order the docs list them (also what PATCH merges). */
export const SETTINGS_FIELDS = [
  'enabled', 'email', 'protocol', 'testUrl', 'liveUrl', 'bucketRegion', 'bucketName', 'testObjectKey', 'liveObjectKey', 'accessKeyId', 'secretAccessKey',
] as const;

export const MAX_RECIPIENTS = 10;
const URL_MAX = 2048;
const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+$/;

/** What the reader needs to know of the stored settings. */
export interface StoredSecret {
  accessKeyId?: string;
  hasSecret: boolean;
}

function readProtocol(raw: unknown): SyncProtocol | undefined {
  if (isAbsent(raw)) return undefined;
  const word = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (word === 'http' || word === 'https') return 'http';
  if (word === 's3' || word === 'object-storage' || word === 'objectstorage') return 's3';
  throw new BadRequest('protocol', 'protocol must be http (public HTTP or HTTPS URLs) or s3 (object storage)');
}

function readEmails(raw: unknown): string | undefined {
  const text = readString(raw, 'email', { maxLength: 2000 });
  if (text === undefined) return undefined;
  const list = text.split(/[,;]/).map((s) => s.trim()).filter((s) => s !== '');
  if (list.length === 0) return undefined;
  if (list.length > MAX_RECIPIENTS) throw new BadRequest('email', `email takes at most ${MAX_RECIPIENTS} addresses`);
  for (const address of list) {
    if (!EMAIL.test(address) || address.length > 254) throw new BadRequest('email', `email "${address}" is not an e-mail address`);
  }
  return list.join(', ');
}

function readSourceUrl(raw: unknown, param: string, guard: AddressGuard): string | undefined {
  const text = readString(raw, param, { maxLength: URL_MAX });
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new BadRequest(param, `${param} must be an absolute http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequest(param, `${param} must be an http or https URL`);
  if (url.username !== '' || url.password !== '') throw new BadRequest(param, `${param} must not carry a user name or password`);
  // Names are resolved (and checked again) at each download; literal addresses and names such as
  // localhost can be refused now, while the owner is looking.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const refused = /^[\d.]+$/.test(host) || host.includes(':') ? guard.refuseAddress(host) : guard.refuseHost(host);
  if (refused) throw new BadRequest(param, `${param} is refused: ${refused}`);
  return url.href;
}

function readName(raw: unknown, param: string, problem: (v: string) => string | undefined): string | undefined {
  const text = readString(raw, param, { maxLength: 63 })?.trim();
  if (text === undefined || text === '') return undefined;
  const issue = problem(text);
  if (issue) throw new BadRequest(param, `${param} ${issue}`);
  return text;
}

function readObjectKey(raw: unknown, param: string): string | undefined {
  const text = readString(raw, param, { maxLength: 1024 });
  if (text === undefined) return undefined;
  const key = text.replace(/^\/+/, '');
  if (key === '') throw new BadRequest(param, `${param} must name an object`);
  return key;
}

function readToken(raw: unknown, param: string, maxLength: number): string | undefined {
  const text = readString(raw, param, { maxLength })?.trim();
  if (text === undefined || text === '') return undefined;
  if (/\s/.test(text)) throw new BadRequest(param, `${param} must not contain spaces`);
  return text;
}

/**
 * Reads and checks the settings. `stored` tells whether a secret is already kept for an access key
 * id: a caller may leave secretAccessKey out to keep it (GET never shows it, so a GET → edit → PUT
 * round trip must work), but a new access key id needs its secret.
 */
export function readSyncSettings(body: Record<string, unknown>, guard: AddressGuard, stored: StoredSecret = { hasSecret: false }): SyncSettingsInput {
  const s: SyncSettingsInput = {
    enabled: readBoolean(body.enabled, 'enabled') ?? false,
    email: readEmails(body.email),
    protocol: readProtocol(body.protocol),
    testUrl: readSourceUrl(body.testUrl, 'testUrl', guard),
    liveUrl: readSourceUrl(body.liveUrl, 'liveUrl', guard),
    bucketRegion: readName(body.bucketRegion, 'bucketRegion', regionProblem),
    bucketName: readName(body.bucketName, 'bucketName', bucketNameProblem),
    testObjectKey: readObjectKey(body.testObjectKey, 'testObjectKey'),
    liveObjectKey: readObjectKey(body.liveObjectKey, 'liveObjectKey'),
    accessKeyId: readToken(body.accessKeyId, 'accessKeyId', 128),
    secretAccessKey: readToken(body.secretAccessKey, 'secretAccessKey', 256),
  };
  if (s.secretAccessKey !== undefined && s.accessKeyId === undefined) throw new BadRequest('accessKeyId', 'accessKeyId is required with secretAccessKey');
  const keepsSecret = s.secretAccessKey === undefined && s.accessKeyId !== undefined && stored.hasSecret && stored.accessKeyId === s.accessKeyId;
  if (s.accessKeyId !== undefined && s.secretAccessKey === undefined && !keepsSecret) {
    throw new BadRequest('secretAccessKey', 'secretAccessKey is required with a new accessKeyId (it is stored encrypted and never shown again)');
  }
  if (!s.enabled) return s;
  // An enabled sync must be able to run.
  if (s.email === undefined) throw new BadRequest('email', 'email (where outcome mails go) is required when the sync is enabled');
  if (s.protocol === undefined) throw new BadRequest('protocol', 'protocol (http or s3) is required when the sync is enabled');
  if (s.protocol === 'http' && s.testUrl === undefined && s.liveUrl === undefined) {
    throw new BadRequest('testUrl', 'the http protocol needs testUrl, liveUrl or both');
  }
  if (s.protocol === 's3') {
    if (s.bucketRegion === undefined) throw new BadRequest('bucketRegion', 'bucketRegion is required for the s3 protocol');
    if (s.bucketName === undefined) throw new BadRequest('bucketName', 'bucketName is required for the s3 protocol');
    if (s.testObjectKey === undefined && s.liveObjectKey === undefined) {
      throw new BadRequest('testObjectKey', 'the s3 protocol needs testObjectKey, liveObjectKey or both');
    }
    if (s.accessKeyId === undefined) throw new BadRequest('accessKeyId', 'accessKeyId is required for the s3 protocol');
  }
  return s;
}

/** The stored settings (minus Store bookkeeping). */
export interface StoredSyncSettings extends Omit<SyncSettingsInput, 'secretAccessKey'> {
  /** Sealed by SecretBox; absent when none was given. */
  secretAccessKeySealed?: string;
}

/** The source an environment reads under these settings, if it has one. */
export type EnvironmentSource =
  | { environment: SyncEnvironment; protocol: 'http'; url: string; shown: string }
  | { environment: SyncEnvironment; protocol: 's3'; region: string; bucket: string; key: string; shown: string };

function shownUrl(text: string): string {
  // Signed URLs carry credentials in the query: reports show the path only.
  const url = new URL(text);
  return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
}

export function environmentSources(s: StoredSyncSettings): EnvironmentSource[] {
  const out: EnvironmentSource[] = [];
  for (const environment of ['test', 'live'] as const) {
    if (s.protocol === 'http') {
      const url = environment === 'test' ? s.testUrl : s.liveUrl;
      if (url) out.push({ environment, protocol: 'http', url, shown: shownUrl(url) });
    } else if (s.protocol === 's3' && s.bucketName && s.bucketRegion) {
      const key = environment === 'test' ? s.testObjectKey : s.liveObjectKey;
      if (key) out.push({ environment, protocol: 's3', region: s.bucketRegion, bucket: s.bucketName, key, shown: s3Url(s.bucketName, key) });
    }
  }
  return out;
}

/** Whether these settings write to the live environment: changing them needs a live secret key. */
export function feedsLive(s: StoredSyncSettings | undefined): boolean {
  return s !== undefined && environmentSources(s).some((src) => src.environment === 'live');
}

/** The caller-settable fields of stored settings, as a body PATCH merges into (no secret). */
export function settingsAsBody(s: StoredSyncSettings | undefined): Record<string, unknown> {
  if (!s) return {};
  const body: Record<string, unknown> = {};
  for (const f of SETTINGS_FIELDS) {
    if (f === 'secretAccessKey') continue;
    const value = s[f];
    if (value !== undefined) body[f] = value;
  }
  return body;
}

/** GET's view: every field present (null when unset), the secret only as a yes/no. */
export function publicSettings(s: StoredSyncSettings | undefined): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const f of SETTINGS_FIELDS) {
    if (f === 'secretAccessKey') continue;
    view[f] = s?.[f] ?? (f === 'enabled' ? false : null);
  }
  view.secretAccessKeySet = s?.secretAccessKeySealed !== undefined;
  return view;
}
