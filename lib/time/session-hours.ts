/**
 * NYSE session wall times (ET, 24-hour). Early-close days end the regular session at 13:00 and the
 * extended session at 17:00.
 * @see docs/methodology.md#sessions
 */
export const SESSION_HOURS = Object.freeze({
  extendedOpen: "04:00",
  regularOpen: "09:30",
  regularClose: "16:00",
  earlyRegularClose: "13:00",
  extendedClose: "20:00",
  earlyExtendedClose: "17:00",
});
