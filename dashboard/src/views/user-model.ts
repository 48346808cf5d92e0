// A user as the dashboard's users views read it from the API, and the words for its name and fraud flags.
export interface User {
  _id: string; userId?: string; deviceId?: string; description?: string; updatedAt: string; createdAt: string;
  location?: { coordinates: [number, number] }; locationAccuracy?: number;
  geofences?: Array<{ _id: string; description?: string; tag?: string; externalId?: string }>;
  place?: { name: string; categories?: string[]; chain?: { name: string } };
  country?: { name: string }; state?: { name: string }; postalCode?: { code?: string; name?: string };
  beacons?: Array<{ description?: string; tag?: string; externalId?: string }>;
  trip?: { _id: string; externalId: string; status: string; eta?: { duration: number; distance: number } };
  fraud?: Record<string, boolean | string | null>;
  deviceType?: string; stopped?: boolean; foreground?: boolean;
}

export const FRAUD_FLAGS = ['mocked', 'jumped', 'compromised', 'inaccurate', 'proxy', 'sharing'] as const;
export const nameOf = (u: { userId?: string | null; deviceId?: string | null; _id: string }) => u.userId ?? u.deviceId ?? u._id;
export const flagsOf = (u: User) => FRAUD_FLAGS.filter((f) => u.fraud?.[f] === true);

