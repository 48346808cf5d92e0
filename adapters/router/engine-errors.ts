// What an external routing engine's failures mean to callers. OutsideNetwork (port.ts) covers "this point is
// off the network"; these two cover the rest, so the gateway can answer 4xx for what the client asked and 503
// for what the engine could not do, without knowing which engine answered.

/** The engine understood the request and refused it (too many points, an option it does not support). */
export class RouterRejected extends Error {
  constructor(readonly engine: string, message: string, readonly param?: string) {
    super(message);
    this.name = 'RouterRejected';
  }
}

/** The engine did not answer usefully: the shared engine client's error (adapters/engine-http). */
export { EngineUnreachable as RouterUnavailable } from '../engine-http/engine-http';
