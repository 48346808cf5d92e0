/** The IP-locator port: where an IP address is, as precisely as a database can say. */
export interface IpLocation {
  /** English country name ("United States"). */
  country?: string;
  /** ISO 3166-1 alpha-2. */
  countryCode?: string;
  countryFlag?: string;
  /** English name of the first-level subdivision ("Washington", "England"). */
  state?: string;
  /** Its code: USPS for the US, the postal abbreviation for Canada, the database's ISO 3166-2 suffix elsewhere. */
  stateCode?: string;
  city?: string;
  postalCode?: string;
  /** Nielsen DMA / metro code, when the database has one (GeoIP2 City for US addresses). */
  dmaCode?: string;
  latitude: number;
  longitude: number;
  /** Radius in kilometres the database gives for its confidence, when it gives one. */
  accuracyRadius?: number;
  /** IANA time zone id. */
  timeZone?: string;
}

export interface IpLocator {
  /** undefined for private, loopback, reserved, malformed and unknown addresses. */
  locate(ip: string): IpLocation | undefined;
  /** Present only when the locator has a source for it (an anonymous-IP database). */
  isProxy?(ip: string): boolean;
}
