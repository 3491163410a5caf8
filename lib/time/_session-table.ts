import { calendarTable } from "./_calendar-table";
import { etInstant } from "./et-time";
import { SESSION_HOURS } from "./session-hours";

/** Session instants (epoch ms) per trading-day position, parallel to `calendarTable().tradingDays`. */
export interface SessionTable {
  extendedOpenMs: Float64Array;
  regularOpenMs: Float64Array;
  regularCloseMs: Float64Array;
  extendedCloseMs: Float64Array;
}

// Memo of a pure computation; rows are filled on first use (NaN = not yet computed) so that a
// cold start only pays for the years it touches.
let table: SessionTable | undefined;

function fill(s: SessionTable, k: number): void {
  const cal = calendarTable();
  const d = cal.tradingDays[k];
  const early = cal.early[cal.tradingEpochDays[k] - cal.firstEpochDay] === 1;
  const h = SESSION_HOURS;
  s.extendedOpenMs[k] = etInstant(d, h.extendedOpen);
  s.regularOpenMs[k] = etInstant(d, h.regularOpen);
  s.regularCloseMs[k] = etInstant(d, early ? h.earlyRegularClose : h.regularClose);
  s.extendedCloseMs[k] = etInstant(d, early ? h.earlyExtendedClose : h.extendedClose);
}

/** The session table with row `k` (a trading-day position) guaranteed to be filled. */
export function sessionRow(k: number): SessionTable {
  if (!table) {
    const n = calendarTable().tradingDays.length;
    const blank = () => new Float64Array(n).fill(Number.NaN);
    table = { extendedOpenMs: blank(), regularOpenMs: blank(), regularCloseMs: blank(), extendedCloseMs: blank() };
  }
  if (Number.isNaN(table.extendedOpenMs[k])) fill(table, k);
  return table;
}
