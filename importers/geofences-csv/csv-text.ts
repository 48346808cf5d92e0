// Turning the uploaded bytes into CSV text: byte-order marks, UTF-16 (Excel's "Unicode text"
// export), a clear refusal of files that are not UTF-8 (Excel's plain "CSV" is Windows-1252, whose
// accented letters would otherwise turn into U+FFFD silently), and the field delimiter.

export type DecodedCsv = { ok: true; text: string } | { ok: false; line: number; message: string };

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function decodeCsvInput(input: string | Buffer): DecodedCsv {
  if (typeof input === 'string') return { ok: true, text: input.charCodeAt(0) === 0xfeff ? input.slice(1) : input };
  if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) {
    return { ok: true, text: input.subarray(2).toString('utf16le') };
  }
  if (input.length >= 2 && input[0] === 0xfe && input[1] === 0xff) {
    // Node has no big-endian UTF-16 decoder; swap each byte pair and read it as little-endian.
    const body = Buffer.from(input.subarray(2, input.length - ((input.length - 2) % 2)));
    body.swap16();
    return { ok: true, text: body.toString('utf16le') };
  }
  const hasBom = input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
  const bytes = hasBom ? input.subarray(3) : input;
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const bad = lenient.indexOf('\ufffd');
    return {
      ok: false,
      line: lineAt(lenient, Math.max(0, bad)),
      message: 'the file is not UTF-8 text; save it as "CSV UTF-8" (in Excel: Save As → CSV UTF-8)',
    };
  }
}

/**
 * The delimiter of the header line: ',' unless the header holds no comma but does hold ';' (the
 * CSV of spreadsheets in locales whose decimal mark is a comma) or a tab. Only the header is read,
 * because data cells legitimately contain all three.
 */
export function detectDelimiter(text: string): string {
  let commas = 0;
  let semicolons = 0;
  let tabs = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '\n' || c === '\r') break;
    else if (c === ',') commas++;
    else if (c === ';') semicolons++;
    else if (c === '\t') tabs++;
  }
  if (commas > 0) return ',';
  if (semicolons > 0) return ';';
  if (tabs > 0) return '\t';
  return ',';
}
