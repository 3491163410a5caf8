// Types and errors
export type { IsoDate, MarketState, SessionBounds, SessionOptions } from "./types";
export { IsoDateSchema } from "./types";
export { CalendarError } from "./calendar-error";
export type { CalendarErrorCode } from "./calendar-error";

// NYSE calendar
export { CALENDAR_FIRST_YEAR, CALENDAR_LAST_YEAR, holidaysOfYear, earlyClosesOfYear } from "./holidays";
export type { Holiday } from "./holidays";
export { isTradingDay, isEarlyClose, holidayName } from "./trading-days";

// Trading-day arithmetic
export {
  nextTradingDay,
  previousTradingDay,
  addTradingDays,
  countTradingDays,
  tradingDaysBetween,
} from "./trading-days";

// ET instants
export { ET_ZONE } from "./_et-offset";
export { etDateOf, etInstant, etMinutesOfDay } from "./et-time";

// Sessions and market state
export { SESSION_HOURS } from "./session-hours";
export { sessionBounds, sessionMinuteCount, minutesOfSession } from "./session";
export { sessionDateAt, marketStateAt } from "./market-state";
