import { expect, it } from "vitest";
import { FIRST_HISTORY_DATE, FIRST_HISTORY_MS } from "../../lib/api/positioning";
import { etInstant } from "../../lib/time";

// FIRST_HISTORY_MS is written as a literal so that importing the library computes nothing; it
// must stay the calendar's midnight ET of FIRST_HISTORY_DATE.
it("FIRST_HISTORY_MS is midnight ET starting FIRST_HISTORY_DATE", () => {
  expect(FIRST_HISTORY_MS).toBe(etInstant(FIRST_HISTORY_DATE, "00:00"));
});
