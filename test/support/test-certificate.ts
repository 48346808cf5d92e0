// A throwaway TLS certificate for tests of the built-in HTTPS, made with the openssl command line
// (Debian's `openssl`): self-signed, valid a day, for the names given and 127.0.0.1. Tests that use it
// skip with one line when openssl is not installed (executable('/usr/bin/openssl', …) in requires.ts).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const OPENSSL = '/usr/bin/openssl';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** SHA-256 of the certificate (DER), to tell which one a server presents. */
  fingerprint: string;
  /** base64 SHA-256 of the public key (SPKI): what Chromium's --ignore-certificate-errors-spki-list takes. */
  spkiHash: string;
}

/** Writes `<name>.crt` and `<name>.key` into dir. */
export function makeCertificate(dir: string, name: string, hostNames: string[]): TestCertificate {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  const altNames = [...hostNames.map((h) => `DNS:${h}`), 'IP:127.0.0.1'].join(',');
  execFileSync(OPENSSL, [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', `/CN=${hostNames[0] ?? 'localhost'}`, '-addext', `subjectAltName=${altNames}`,
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'pipe' });
  const x509 = new crypto.X509Certificate(fs.readFileSync(certFile));
  const spki = x509.publicKey.export({ type: 'spki', format: 'der' });
  return {
    certFile,
    keyFile,
    fingerprint: x509.fingerprint256,
    spkiHash: crypto.createHash('sha256').update(spki).digest('base64'),
  };
}
