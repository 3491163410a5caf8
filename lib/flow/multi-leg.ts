/**
 * Multi-leg package detection: legs of one spread, combo or stock-option package.
 * @see docs/methodology.md#flow-multi-leg-packages
 */
import type { OptionPrint } from "../market/prints/schemas";
import { isMultiLegPrint } from "../market/prints/conditions";
import { MULTI_LEG_WINDOW } from "./params";
import { premiumUsd } from "./trade-facts";

/** Strategy names of a detected package. */
export const PACKAGE_STRATEGIES = [
  "vertical",
  "ratio_spread",
  "straddle",
  "strangle",
  "calendar",
  "diagonal",
  "butterfly",
  "iron_condor",
  "iron_butterfly",
  "custom",
  "unpaired",
] as const;
/** One strategy name. */
export type PackageStrategy = (typeof PACKAGE_STRATEGIES)[number];

/** One detected multi-leg package. */
export interface MultiLegPackage {
  id: number;
  underlying: string;
  exchange: string;
  firstTsMs: number;
  /** Indices of the legs in the input, in time order. */
  printIndices: number[];
  legCount: number;
  strategy: PackageStrategy;
  totalContracts: number;
  totalPremiumUsd: number;
}

/** Result of {@link detectMultiLeg}. */
export interface MultiLegDetection {
  packages: MultiLegPackage[];
  /** Per input print: the package id, or -1 (not a multi-leg leg). */
  packageOf: Int32Array;
}

type Leg = Pick<OptionPrint, "expiry" | "strike" | "right" | "size">;

/**
 * Strategy of a set of legs (by expiry, strike, right and size). Rules in order: one leg
 * `unpaired`; two legs of one expiry: same right `vertical` (`ratio_spread` when sizes differ),
 * call and put on one strike `straddle`, else `strangle`; two legs of two expiries: same strike and
 * right `calendar`, else `diagonal`; three legs of one expiry and right `butterfly`; four legs of
 * one expiry, two calls and two puts: `iron_butterfly` when the inner call and put share a strike,
 * else `iron_condor`; anything else `custom`.
 * @example
 * packageStrategy([{ expiry: "2024-03-15", strike: 500, right: "C", size: 1 }, { expiry: "2024-03-15", strike: 500, right: "P", size: 1 }]); // "straddle"
 * @see docs/methodology.md#flow-multi-leg-packages
 */
export function packageStrategy(legs: readonly Leg[]): PackageStrategy {
  if (legs.length === 1) return "unpaired";
  const oneExpiry = legs.every((l) => l.expiry === legs[0].expiry);
  const oneRight = legs.every((l) => l.right === legs[0].right);
  if (legs.length === 2) {
    const [a, b] = legs;
    if (oneExpiry) {
      if (oneRight) return a.size === b.size ? "vertical" : "ratio_spread";
      return a.strike === b.strike ? "straddle" : "strangle";
    }
    return a.strike === b.strike && oneRight ? "calendar" : "diagonal";
  }
  if (legs.length === 3 && oneExpiry && oneRight) return "butterfly";
  if (legs.length === 4 && oneExpiry) {
    const calls = legs
      .filter((l) => l.right === "C")
      .map((l) => l.strike)
      .sort((x, y) => x - y);
    const puts = legs
      .filter((l) => l.right === "P")
      .map((l) => l.strike)
      .sort((x, y) => x - y);
    if (calls.length === 2 && puts.length === 2) return calls[0] === puts[1] ? "iron_butterfly" : "iron_condor";
  }
  return "custom";
}

/**
 * Groups multi-leg legs (prints carrying a multi-leg condition, in time order) into packages: legs
 * of one underlying on one exchange within `maxSpanMs` of the package's first leg, each contract
 * at most once (a repeat starts a new package).
 * @example
 * const { packages } = detectMultiLeg(prints);
 * @see docs/methodology.md#flow-multi-leg-packages
 */
export function detectMultiLeg(prints: readonly OptionPrint[], window: { maxSpanMs: number } = MULTI_LEG_WINDOW): MultiLegDetection {
  const open = new Map<string, { members: number[]; symbols: Set<string>; firstTsMs: number }>();
  const drafts: { members: number[]; firstTsMs: number }[] = [];
  for (let i = 0; i < prints.length; i++) {
    const p = prints[i];
    if (!isMultiLegPrint(p)) continue;
    const key = `${p.underlying}|${p.exchange}`;
    const o = open.get(key);
    if (o && p.tsMs - o.firstTsMs <= window.maxSpanMs && !o.symbols.has(p.symbol)) {
      o.members.push(i);
      o.symbols.add(p.symbol);
    } else {
      const fresh = { members: [i], symbols: new Set([p.symbol]), firstTsMs: p.tsMs };
      open.set(key, fresh);
      drafts.push(fresh);
    }
  }
  const packageOf = new Int32Array(prints.length).fill(-1);
  const packages: MultiLegPackage[] = drafts.map((d, id) => {
    let contracts = 0;
    let premium = 0;
    for (const i of d.members) {
      packageOf[i] = id;
      contracts += prints[i].size;
      premium += premiumUsd(prints[i].price, prints[i].size);
    }
    const first = prints[d.members[0]];
    return {
      id,
      underlying: first.underlying,
      exchange: first.exchange,
      firstTsMs: d.firstTsMs,
      printIndices: d.members,
      legCount: d.members.length,
      strategy: packageStrategy(d.members.map((i) => prints[i])),
      totalContracts: contracts,
      totalPremiumUsd: premium,
    };
  });
  return { packages, packageOf };
}
