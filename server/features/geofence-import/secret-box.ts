// Seals the object-storage secret access keys that projects store for their sync (AES-256-GCM). The
// key comes from WAYMARK_SYNC_SECRET_KEY, or else from a key file the gateway creates in its data
// directory (mode 0600) on first use. Gateways sharing one PostgreSQL must share the key: set the
// variable on every node. The project id is bound in as associated data, so a sealed secret copied
// into another project's settings does not open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
export const KEY_FILE = 'geofence-sync.key';

function decodeKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error(`${where} must hold 32 bytes as 64 hex characters or base64 (e.g. openssl rand -hex 32)`);
  return key;
}

export class SecretBox {
  private key: Buffer | undefined;

  /** `configured`: WAYMARK_SYNC_SECRET_KEY, if set; otherwise `dataDir` holds the key file. */
  constructor(
    private readonly configured: string | undefined,
    private readonly dataDir: string,
  ) {
    if (configured !== undefined) this.key = decodeKey(configured, 'WAYMARK_SYNC_SECRET_KEY');
  }

  private loadKey(): Buffer {
    if (this.key) return this.key;
    const file = path.join(this.dataDir, KEY_FILE);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(this.dataDir, { recursive: true });
      try {
        // 'wx': two processes starting at once must not both write a key.
        fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    this.key = decodeKey(fs.readFileSync(file, 'utf8'), file);
    return this.key;
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.loadKey(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
  }

  /** The plain text, or an Error saying the secret cannot be opened with this node's key. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) throw new Error('the stored secret is not in a known format');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.loadKey(), Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('the stored secret access key cannot be decrypted with this gateway\'s key (WAYMARK_SYNC_SECRET_KEY differs between nodes, or the key file was replaced): save the settings again with the secret');
    }
  }
}
