/**
 * The trade id forms `/v1/score/{trade_id}` accepts: ours (`ROOT-<epoch minute>-<n>`, the feed's
 * `tradeId`) and the reference's three (`flow_{hex}_{idx}`, a bare hex timestamp, raw nanoseconds),
 * which name a print by its exact time.
 * @see docs/methodology.md#flow-trade-id-forms
 */
import { parseTradeId } from "./trade-score";

/** A parsed trade id: ours (root and minute locate the tape) or by time (nanoseconds and rank). */
export type TradeRef = { kind: "feed"; id: string; root: string; minuteMs: number } | { kind: "time"; tsNs: string; index: number };

/** Shortest decimal string read as nanoseconds rather than hex (2001-09-09 onwards has 19 digits). */
export const RAW_NANOS_MIN_DIGITS = 18;

/** Largest nanosecond time accepted (16 hex digits cover any int64). */
const MAX_NS = (1n << 63n) - 1n;

function nsOfHex(hex: string): string | null {
  if (!/^[0-9a-f]{1,16}$/.test(hex)) return null;
  const ns = BigInt(`0x${hex}`);
  return ns > 0n && ns <= MAX_NS ? ns.toString() : null;
}

/**
 * Parses any accepted form (case-insensitive). Rules: `ROOT-<minute>-<n>` is ours, and so is a live
 * Massive print's `M-<contract>-<ms>-<sequence>`; `flow_<hex>_<idx>`
 * is the print at that hex nanosecond time, `idx` its 0-based rank among the prints of that exact
 * time; a run of at least {@link RAW_NANOS_MIN_DIGITS} decimal digits is raw nanoseconds; any other
 * 1 to 16 hex digits are a bare hex time (both rank 0). Null for anything else.
 * @example parseTradeRef("flow_188afe42c3a77af2_1") // { kind: "time", tsNs: "1768505366400170738", index: 1 }
 * @see docs/methodology.md#flow-trade-id-forms
 */
export function parseTradeRef(raw: string): TradeRef | null {
  const s = raw.trim();
  const ours = parseTradeId(s.toUpperCase());
  if (ours) return { kind: "feed", id: s.toUpperCase(), root: ours.root, minuteMs: ours.minuteMs };
  const live = liveFeedTradeRef(s.toUpperCase());
  if (live) return live;
  const lower = s.toLowerCase();
  const flow = /^flow_([0-9a-f]{1,16})_(\d{1,6})$/.exec(lower);
  if (flow) {
    const tsNs = nsOfHex(flow[1]);
    return tsNs ? { kind: "time", tsNs, index: Number(flow[2]) } : null;
  }
  if (/^\d+$/.test(lower) && lower.length >= RAW_NANOS_MIN_DIGITS) {
    if (lower.length > 19) return null;
    const ns = BigInt(lower);
    return ns > 0n && ns <= MAX_NS ? { kind: "time", tsNs: ns.toString(), index: 0 } : null;
  }
  const tsNs = nsOfHex(lower);
  return tsNs ? { kind: "time", tsNs, index: 0 } : null;
}

/**
 * A live Massive print's id, `M-<contract, URL form>-<Unix ms>-<sequence>` (lib/market/massive/trade-print.ts):
 * its root and minute locate the tape like ours. Null for anything else.
 * @example liveFeedTradeRef("M-SPY__251205C00650000-1764774001000-2") // { kind: "feed", id: "M-SPY__251205C00650000-1764774001000-2", root: "SPY", minuteMs: 1764774000000 }
 */
function liveFeedTradeRef(id: string): TradeRef | null {
  const m = /^M-([A-Z0-9.]{1,6})__\d{6}[CP]\d{8}-(\d{1,15})-\d{1,20}$/.exec(id);
  if (!m) return null;
  const ms = Number(m[2]);
  return { kind: "feed", id, root: m[1], minuteMs: ms - (ms % 60_000) };
}

/** The reference's canonical id of a print: `flow_<hex nanoseconds>_<rank>`. */
export function referenceTradeId(tsNs: string, index: number): string {
  return `flow_${BigInt(tsNs).toString(16)}_${index}`;
}
