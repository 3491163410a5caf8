// earnings_context against the overlap rule on hand-made terms (a stub ChainTerms whose near and
// next settlements are known) and the status rules.
import { describe, expect, it } from "vitest";
import { etInstant } from "../../lib/time";
import type { ChainTerms } from "../../lib/vol";
import { earningsContext, earningsOverlap } from "../../lib/vol/earnings-context";

const asOfMs = etInstant("2024-04-29", "10:00");
const DAY = 86_400_000;

/** Terms whose near term settles `nearDays` after the board for every target; null reads when `none`. */
function stub(nearDays: number | null, none = false): Pick<ChainTerms, "asOfMs" | "varianceTo"> {
  return {
    asOfMs,
    varianceTo: () => (none ? null : ({ near: nearDays === null ? null : { settleMs: asOfMs + nearDays * DAY } } as never)),
  };
}

describe("earningsOverlap", () => {
  const report = etInstant("2024-05-02", "16:00"); // amc, 3.25 days out
  it("none after the horizon, partial when the near term settles before the report, else full", () => {
    expect(earningsOverlap(stub(1), etInstant("2024-05-20", "16:00"), 12_960)).toBe("none");
    expect(earningsOverlap(stub(1), report, 12_960)).toBe("partial");
    expect(earningsOverlap(stub(4), report, 12_960)).toBe("full");
    expect(earningsOverlap(stub(null), report, 12_960)).toBe("full");
    expect(earningsOverlap(stub(1, true), report, 12_960)).toBeNull();
  });
});

describe("earningsContext", () => {
  const next = { date: "2024-05-02", timing: "amc" as const };
  it("a scheduled report: date, timing, within 9 days, both overlaps", () => {
    expect(earningsContext(stub(4), { calendar: true, next })).toEqual({
      status: "scheduled",
      date: "2024-05-02",
      timing: "amc",
      within_9d: true,
      overlap_9d: "full",
      overlap_30d: "full",
    });
    // A report 18 days out is outside the 9-day reading and inside the 30-day one, which the
    // near term (4 days) only spans: partial.
    const later = earningsContext(stub(4), { calendar: true, next: { date: "2024-05-17", timing: "bmo" } });
    expect(later).toMatchObject({ within_9d: false, overlap_9d: "none", overlap_30d: "partial" });
    expect(earningsContext(stub(25), { calendar: true, next: { date: "2024-05-17", timing: "bmo" } }).overlap_30d).toBe("full");
  });

  it("limited without a reading; no_report and calendar_unavailable", () => {
    expect(earningsContext(stub(4, true), { calendar: true, next })).toMatchObject({ status: "limited", overlap_9d: null, overlap_30d: null });
    expect(earningsContext(stub(4), { calendar: true, next: null })).toEqual({
      status: "no_report",
      date: null,
      timing: null,
      within_9d: null,
      overlap_9d: "none",
      overlap_30d: "none",
    });
    expect(earningsContext(stub(4), { calendar: false, next: null }).status).toBe("calendar_unavailable");
    expect(earningsContext(stub(4), { calendar: false, next: null }).overlap_30d).toBeNull();
  });
});
