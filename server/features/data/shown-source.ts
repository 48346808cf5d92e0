// What GET /v1/data/extracts may say about where an extract came from. The manifest keeps the source as
// the operator typed it (`waymark data list` shows it on the server), which for a URL can hold a user,
// a password or a signed query string, and for a file the server's own path; every project's secret key
// reads this listing, so it gets only the kind of source and, for a URL, its host.

export type ShownSource = { type: 'url'; host: string } | { type: 'file' };

export function shownSource(source: string): ShownSource {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return { type: 'file' };
  }
  // A Windows path such as C:\maps\x.pbf parses as a URL with the scheme "c:".
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'ftp:') return { type: 'file' };
  return { type: 'url', host: url.host };
}
