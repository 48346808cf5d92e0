// The signed-in keys live in sessionStorage only: closing the tab signs out, and nothing is written to
// disk or sent anywhere but the API. One secret key per environment; the switch needs the other one.
export type Environment = 'test' | 'live';

const STORAGE_KEY = 'waymark.dashboard.keys';
const KEY_PATTERN = /^prj_(test|live)_sk_[A-Za-z0-9]+$/;

export interface Keys {
  test?: string;
  live?: string;
  current: Environment;
}

export function environmentOf(key: string): Environment | undefined {
  const match = KEY_PATTERN.exec(key.trim());
  return match ? (match[1] as Environment) : undefined;
}

export function loadKeys(): Keys | undefined {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const keys = JSON.parse(raw) as Keys;
    return keys[keys.current] ? keys : undefined;
  } catch {
    return undefined;
  }
}

export function saveKeys(keys: Keys): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(keys));
}

export function clearKeys(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
