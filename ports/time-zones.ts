/** The time-zone port: which IANA zone a point is in. */
export interface TimeZoneLookup {
  /** IANA id ("America/New_York") at [longitude, latitude]; undefined for invalid points. At sea: an Etc/GMT±N zone. */
  zoneAt(point: [number, number]): string | undefined;
}
