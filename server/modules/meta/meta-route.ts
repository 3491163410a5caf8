import { routeDefiner } from "../define-route";

/** The meta module's state: the API descriptions, built once per served origin. */
export interface MetaState {
  documents: Map<string, unknown>;
}

/** `defineRoute` for the meta routes. */
export const metaRoute = routeDefiner<MetaState>();
