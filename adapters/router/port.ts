// The Router port: travel time and distance between points for a mode. Routing endpoints will add
// directions, matrices and matching; track, trips and search need only these.
export type RouterMode = 'car' | 'truck' | 'foot' | 'bike';

export interface Eta {
  /** Minutes. */
  duration: number;
  /** Metres. */
  distance: number;
}

export interface Router {
  readonly name: string;
  eta(from: [number, number], to: [number, number], mode: RouterMode): Promise<Eta>;
  /** How far (metres, straight line) one can get in `minutes`; used to bound searches by travel time. */
  reach(minutes: number, mode: RouterMode): number;
}
