import { EmptyQuerySchema } from "../../../lib/api/common";
import { AccountRecordSchema } from "../../../lib/api/account";
import { metaRoute } from "./meta-route";

/** `data` of `GET /v1/account`: the spec's Account record (one schema, owned by the accounts contract). */
const AccountDataSchema = AccountRecordSchema;

/** `GET /v1/account`: balance, status and limits of the calling key's account. Free. */
export const accountRoute = metaRoute({
  host: "base",
  module: "account",
  method: "GET",
  path: "/v1/account",
  operationId: "getAccount",
  cost: 0,
  entitlement: "none",
  query: EmptyQuerySchema,
  data: AccountDataSchema,
  summary: "Your balance and limits",
  description:
    "The account behind the key: status, credit balance (and its value in US dollars at 0.001 per credit), plan, " +
    "spend caps and the limits that apply. Read it at start-up instead of hard-coding limits. Free.",
  tags: ["Account"],
  handler: async ({ principal, services }) => ({ data: await services.accounts.accountView(principal!) }),
});
