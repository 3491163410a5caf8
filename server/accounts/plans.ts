/**
 * Plan definitions: entitlements, limits, grants and default caps per plan.
 * Every number here is a documented decision; see docs/api.md#accounts-and-keys and
 * docs/api.md#credits-and-ledger.
 */
import { INDEX_ETF_TIER_SYMBOLS } from "./_tier-symbols";
import type { AccountLimits, Entitlement, Plan } from "./types";

/** How a plan's credit grant recurs. */
type GrantSchedule =
  /** Topped up to `grantCredits` on the 1st of every ET month (applied lazily). */
  | "monthly"
  /** Granted once, when the account is created. */
  | "once";

export interface PlanDefinition {
  plan: Plan;
  /** Entitlements included (`none` is implied for every plan). */
  entitlements: ReadonlySet<Exclude<Entitlement, "none">>;
  /** Upper-case symbols the plan may read; null = every symbol. */
  symbols: ReadonlySet<string> | null;
  limits: AccountLimits;
  grantCredits: number;
  grantSchedule: GrantSchedule;
  /** Default daily credit cap (credits per ET day, net of refunds); null = no cap. */
  defaultDailyCapCredits: number | null;
  /** Default monthly spend cap (credits per ET month, net of refunds); null = no cap. */
  defaultMonthlyCapCredits: number | null;
}

/** The spec's example limits for the four listed plans. */
const LISTED_LIMITS: AccountLimits = {
  requestsPerMinute: 120,
  symbolsPerHeatmapCall: 10,
  symbolsPerStream: 10,
  streamSymbolsConcurrent: 25,
  historicalInFlight: 2,
  activeKeys: 5,
  streamMaxDurationMinutes: 60,
};

/** Invite-code access: 60 requests per minute per key and 2 keys (spec, Rate and concurrency). */
const INVITE_LIMITS: AccountLimits = { ...LISTED_LIMITS, requestsPerMinute: 60, activeKeys: 2 };

const ALL = new Set(["positioning", "replay", "flow", "volatility", "price"] as const);

export const PLAN_DEFINITIONS: Readonly<Record<Plan, PlanDefinition>> = {
  top: {
    plan: "top",
    entitlements: ALL,
    symbols: null,
    limits: LISTED_LIMITS,
    grantCredits: 100_000,
    grantSchedule: "monthly",
    defaultDailyCapCredits: 50_000,
    defaultMonthlyCapCredits: null,
  },
  api: {
    plan: "api",
    entitlements: ALL,
    symbols: null,
    limits: LISTED_LIMITS,
    grantCredits: 100_000,
    grantSchedule: "monthly",
    defaultDailyCapCredits: 50_000,
    defaultMonthlyCapCredits: null,
  },
  "index-etf": {
    plan: "index-etf",
    // Flow too, for the tier's 63 symbols (`symbols` applies to flow routes through `symbolsOf`).
    entitlements: new Set(["positioning", "replay", "flow", "price"] as const),
    symbols: new Set(INDEX_ETF_TIER_SYMBOLS.map((s) => s.toUpperCase())),
    limits: LISTED_LIMITS,
    grantCredits: 5_000,
    grantSchedule: "once",
    defaultDailyCapCredits: 25_000,
    defaultMonthlyCapCredits: null,
  },
  flow: {
    plan: "flow",
    entitlements: new Set(["flow"] as const),
    symbols: null,
    limits: LISTED_LIMITS,
    grantCredits: 5_000,
    grantSchedule: "once",
    defaultDailyCapCredits: 25_000,
    defaultMonthlyCapCredits: null,
  },
  invite: {
    plan: "invite",
    entitlements: new Set(["positioning", "replay", "flow", "price"] as const),
    symbols: null,
    limits: INVITE_LIMITS,
    grantCredits: 5_000,
    grantSchedule: "once",
    defaultDailyCapCredits: 5_000,
    defaultMonthlyCapCredits: null,
  },
};

/**
 * Entitlements whose data is OPRA-licensed option prints and so need the account's signed
 * OPRA subscriber agreement (403 `opra_agreement_required` otherwise).
 */
export const OPRA_ENTITLEMENTS: ReadonlySet<Entitlement> = new Set<Entitlement>(["flow"]);

/** True when `value` names a plan. */
export function isPlan(value: unknown): value is Plan {
  return typeof value === "string" && Object.hasOwn(PLAN_DEFINITIONS, value);
}

/**
 * The plan's definition.
 * @example planDefinition("invite").limits.requestsPerMinute // 60
 */
export function planDefinition(plan: Plan): PlanDefinition {
  return PLAN_DEFINITIONS[plan];
}
