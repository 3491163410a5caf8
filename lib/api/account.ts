/**
 * The account and API-description records: `data` of `GET /v1/account` and of the OpenAPI
 * routes. Kept in the library so the server and the typed client (lib/client) share one copy.
 * See docs/api.md#accounts-and-keys.
 */
import * as z from "zod";

/** Plan tiers of the spec ("Plans decide which data an account may read"). */
export const PlanSchema = z.enum(["top", "api", "index-etf", "flow", "invite"]);

/** Administrative state of an account; only `active` may call the API. */
export const AccountStatusSchema = z.enum(["active", "suspended", "blocked"]);

/** The spec's `limits.*` fields of the Account record (all integers). */
export const AccountLimitsSchema = z.object({
  requestsPerMinute: z.number().int(),
  symbolsPerHeatmapCall: z.number().int().max(10),
  symbolsPerStream: z.number().int(),
  streamSymbolsConcurrent: z.number().int(),
  historicalInFlight: z.number().int(),
  activeKeys: z.number().int(),
  streamMaxDurationMinutes: z.number().int(),
});

/** `data` of `GET /v1/account`: the spec's Account record (plus additive reference fields). */
export const AccountRecordSchema = z.object({
  /** Additive (reference name): the account id. */
  customerId: z.string(),
  status: AccountStatusSchema,
  /** Additive: the plan name. */
  plan: PlanSchema,
  /** Additive (reference name): true when the plan includes API access (always, here). */
  apiEligible: z.boolean(),
  /** Additive (reference name): credits are always metered here, so false. */
  unlimited: z.boolean(),
  creditsBalance: z.number().int(),
  /** `creditsBalance * 0.001`, rounded to 0.001. */
  balanceUsd: z.number(),
  limits: AccountLimitsSchema,
  /** Additive: spend caps and what has been spent against them (credits, net of refunds). */
  caps: z
    .object({
      dailyCredits: z.number().int().nullable(),
      monthlyCredits: z.number().int().nullable(),
      usedTodayCredits: z.number().int(),
      usedThisMonthCredits: z.number().int(),
    })
    .optional(),
});

/** An OpenAPI 3.1 document, as the description routes serve it. */
export const OpenApiDocumentSchema = z.looseObject({ openapi: z.string(), info: z.object({}).loose(), paths: z.object({}).loose() });
