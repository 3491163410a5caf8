// Shared by tz-independence.process.test.ts (in process) and _tz-probe.ts (in a child process with another TZ).
import { addTradingDays, etDateOf, etInstant, etMinutesOfDay, marketStateAt, sessionBounds, sessionDateAt } from "../../lib/time";
import { settlementInstantMs } from "../../lib/symbols";

const DATES = ["2024-03-08", "2024-03-11", "2024-11-01", "2024-11-04", "2024-11-29", "2024-07-03", "2025-01-08", "2030-12-31"];
const WALL_TIMES: Array<[string, string]> = [
  ["2024-03-09", "23:59"],
  ["2024-03-10", "00:00"],
  ["2024-03-10", "01:59"],
  ["2024-03-10", "02:30"],
  ["2024-03-10", "03:00"],
  ["2024-11-03", "00:59"],
  ["2024-11-03", "01:30"],
  ["2024-11-03", "02:00"],
  ["2023-03-12", "03:00"],
  ["2025-11-02", "01:00"],
];

/** Instants every 37 minutes over 2024-03-08..12 and 2024-11-01..05 (both DST weekends). */
function instants(): number[] {
  const out: number[] = [];
  for (const start of [Date.UTC(2024, 2, 8), Date.UTC(2024, 10, 1)]) {
    for (let t = start; t < start + 4 * 86_400_000; t += 37 * 60_000) out.push(t);
  }
  return out;
}

/** Everything lib/time and settlement compute that could leak the process time zone. */
export function computeProbe() {
  return {
    sessions: DATES.map((d) => [d, sessionBounds(d), sessionBounds(d, { extended: true })]),
    wall: WALL_TIMES.map(([d, t]) => [d, t, etInstant(d, t)]),
    instants: instants().map((t) => [t, etDateOf(t), etMinutesOfDay(t), marketStateAt(t), sessionDateAt(t)]),
    arithmetic: DATES.slice(0, 6).map((d) => [d, addTradingDays(d, 3), addTradingDays(d, -3)]),
    settlement: [settlementInstantMs("SPX", "2025-04-18"), settlementInstantMs("SPXW", "2024-11-29")],
  };
}
