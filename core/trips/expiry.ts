// When an open trip expires: `hours` (the project's tripExpirationHours) after its last update.
// Stopped trips never expire. Pure: ISO strings in and out.
import { isOpen, type TripStatus } from './status';

const MS_PER_HOUR = 3_600_000;

export function tripExpiresAt(status: TripStatus, updatedAt: string, hours: number): string | undefined {
  if (!isOpen(status)) return undefined;
  return new Date(Date.parse(updatedAt) + hours * MS_PER_HOUR).toISOString();
}
