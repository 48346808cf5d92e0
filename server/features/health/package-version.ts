// The gateway's name and version, read once from the package.json at the root of the installation (the
// same file whether running from the TypeScript sources or from dist/).
import fs from 'node:fs';
import path from 'node:path';

export interface PackageInfo {
  name: string;
  version: string;
}

let cached: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  if (cached) return cached;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<PackageInfo>;
      cached = { name: pkg.name ?? 'waymark', version: pkg.version ?? '0.0.0' };
      return cached;
    }
    if (path.dirname(dir) === dir) return (cached = { name: 'waymark', version: '0.0.0' });
  }
}
