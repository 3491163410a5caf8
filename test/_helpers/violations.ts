// Checks many values with one assertion. An `expect` per value in a loop of thousands costs more
// than what it checks (vitest's matcher state is copied on every call); a test that checks every
// row of every board collects what fails instead and asserts the list is empty, which reports
// each failing row just as well.
import { expect } from "vitest";

export interface Violations {
  /** Records `what()` when `ok` is false (the message is built only then). */
  check(ok: boolean, what: () => string): void;
  /** Asserts nothing was recorded; the failure lists the first 20 records. */
  expectNone(label?: string): void;
  /** How many checks ran (lets a test assert that it checked something). */
  readonly checked: number;
}

export function violations(): Violations {
  const found: string[] = [];
  let checked = 0;
  return {
    check(ok, what) {
      checked++;
      if (!ok) found.push(what());
    },
    expectNone(label) {
      expect(found.slice(0, 20), `${label ?? ""}${found.length > 20 ? ` (${found.length} in all)` : ""}`).toEqual([]);
    },
    get checked() {
      return checked;
    },
  };
}
