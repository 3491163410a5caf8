/**
 * The response example of each operation: real answers of the app over the simulated market,
 * written by scripts/build-openapi-examples.ts (run by `npm run build` for operations that have
 * none) into examples.generated.json, and checked against the routes' schemas by
 * test/server/openapi/examples.test.ts. See docs/api.md#openapi-documents.
 */
import type { AnyRoute } from "../modules/define-route";
import generated from "./examples.generated.json";

/** One operation's example: the request that produced it and its 200 body (lists cut to 3 items). */
export interface OperationExample {
  request: string;
  body: unknown;
}

/** Key of a route in the examples file: host, method and declared path. */
export function exampleKey(route: Pick<AnyRoute, "host" | "method" | "path">): string {
  return `${route.host} ${route.method} ${route.path}`;
}

const EXAMPLES = generated as Record<string, OperationExample>;

/** The example of a route, or undefined when the file has none (a route added since the last build). */
export function exampleOf(route: Pick<AnyRoute, "host" | "method" | "path">): OperationExample | undefined {
  return EXAMPLES[exampleKey(route)];
}
