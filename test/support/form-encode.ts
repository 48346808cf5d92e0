// A request body as an HTML form sends it (application/x-www-form-urlencoded), the way Radar's older
// clients post: nested values travel as JSON text, undefined ones are left out. Shared by the test
// server's request helper and the replay recorder, which must send byte-identical bodies.

export function formEncode(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    params.append(k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  }
  return params.toString();
}
