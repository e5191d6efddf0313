/**
 * The one typed event emitter of the core's services: an event of the contract (shared/api.ts)
 * with its payload type. A service names the events it may send (`Emit<'onRequestBatch' | …>`);
 * the core's emitter, typed for every event, is one of those as it is, with no cast.
 */
import type { ApiEvent, ApiEvents } from '../../shared/api.ts';

export type Emit<Events extends ApiEvent = ApiEvent> = <E extends Events>(
  event: E,
  payload: ApiEvents[E],
) => void;
