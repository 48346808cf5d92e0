// 24-hex ids shaped like MongoDB ObjectIds (4-byte seconds, 5 random bytes per process, 3-byte counter),
// because Radar's ids look like that and some clients validate the shape. Sorting by id ≈ creation order.
import { randomBytes } from 'node:crypto';

const processRandom = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

export function newObjectId(at: Date = new Date()): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(at.getTime() / 1000) >>> 0;
  return seconds.toString(16).padStart(8, '0') + processRandom + counter.toString(16).padStart(6, '0');
}

export function isObjectId(value: string): boolean {
  return /^[0-9a-f]{24}$/.test(value);
}
