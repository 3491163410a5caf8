// The query-parameter schemas live in the library (`lib/api/params.ts`) so the typed client and the
// server share one copy; re-exported here for the route files.
export * from "../../lib/api/params";
