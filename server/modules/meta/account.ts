import { z } from "zod";
import { metaRoute } from "./meta-route";

/** `data` of `GET /v1/account`: the spec's Account record (plus additive reference fields). */
export const AccountDataSchema = z.object({
  customerId: z.string(),
  status: z.enum(["active", "suspended", "blocked"]),
  plan: z.enum(["top", "api", "index-etf", "flow", "invite"]),
  apiEligible: z.boolean(),
  unlimited: z.boolean(),
  creditsBalance: z.number().int(),
  balanceUsd: z.number(),
  limits: z.object({
    requestsPerMinute: z.number().int(),
    symbolsPerHeatmapCall: z.number().int().max(10),
    symbolsPerStream: z.number().int(),
    streamSymbolsConcurrent: z.number().int(),
    historicalInFlight: z.number().int(),
    activeKeys: z.number().int(),
    streamMaxDurationMinutes: z.number().int(),
  }),
  caps: z
    .object({
      dailyCredits: z.number().int().nullable(),
      monthlyCredits: z.number().int().nullable(),
      usedTodayCredits: z.number().int(),
      usedThisMonthCredits: z.number().int(),
    })
    .optional(),
});

/** `GET /v1/account`: balance, status and limits of the calling key's account. Free. */
export const accountRoute = metaRoute({
  host: "base",
  module: "account",
  method: "GET",
  path: "/v1/account",
  operationId: "getAccount",
  cost: 0,
  entitlement: "none",
  query: z.object({}),
  data: AccountDataSchema,
  summary: "Your balance and limits",
  description:
    "The account behind the key: status, credit balance (and its value in US dollars at 0.001 per credit), plan, " +
    "spend caps and the limits that apply. Read it at start-up instead of hard-coding limits. Free.",
  tags: ["Account"],
  handler: ({ principal, services }) => ({ data: services.accounts.accountView(principal!) }),
});
