// A seeded store-list CSV as operators export them: quoted descriptions and coordinates, metadata
// columns, some operating hours; optionally `enabled` and `ip` columns too.
import { prng } from './prng';

export function generateStoreCsv(rows: number, seed: number, opts: { enabledAndIp?: boolean } = {}): string {
  const rnd = prng(seed);
  const extra = opts.enabledAndIp === true;
  const lines = [`description,type,tag,externalId,coordinates,radius,${extra ? 'enabled,' : ''}metadata.brand,metadata.region,operatingHours.Mon${extra ? ',ip' : ''}`];
  const brands = ['acme', 'globex', 'initech', 'umbrella'];
  for (let i = 0; i < rows; i++) {
    const lng = (-125 + rnd() * 60).toFixed(6);
    const lat = (25 + rnd() * 24).toFixed(6);
    const radius = 10 + Math.floor(rnd() * 990);
    const hours = rnd() < 0.3 ? '"[[""8:00 am"",""8:30 pm""]]"' : '';
    if (extra) {
      const ip = rnd() < 0.1 ? `10.${i % 256}.0.0/16` : '';
      lines.push(`"Store ${i}, Main St",circle,store,s${i},"[${lng},${lat}]",${radius},${rnd() < 0.9 ? 'true' : 'false'},${brands[i % 4]},r${i % 50},${hours},${ip}`);
    } else {
      lines.push(`"Store ${i}, Main St",circle,store,s${i},"[${lng},${lat}]",${radius},${brands[i % 4]},r${i % 50},${hours}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
