// `optionscope/client/schemas`: every route's schemas by client method name, for
// `createClient({ validateResponses: operationSchemas })` in a bundled page (the `true` form loads
// this table at run time, which a bundle cannot). Kept out of `optionscope` and
// `optionscope/client` so that a page that does not validate carries no schema
// (docs/methodology.md#package-budgets).
export { operationSchemas } from "./operation-schemas.generated";
