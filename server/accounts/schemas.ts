/**
 * The accounts contract as zod schemas: plans, statuses, limits and the Account record of
 * `GET /v1/account`. The TypeScript types in `./types` are `z.output` of these, so each shape is
 * written once; they live in the library (`lib/api/account.ts`) so the typed client shares them.
 * See docs/api.md#accounts-and-keys.
 */
export { AccountLimitsSchema, AccountRecordSchema, AccountStatusSchema, PlanSchema } from "../../lib/api/account";
