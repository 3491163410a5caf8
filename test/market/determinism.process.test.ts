// Moved from determinism.test.ts: the one check that starts another process (the integration layer).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fingerprint } from "./_fingerprint";

describe("simulated market determinism", () => {
  it("gives identical bytes in another process", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "test/market/_fingerprint.ts", "42"], { encoding: "utf8" });
    expect(out.trim().split("\n").pop()).toBe(fingerprint(42));
  });
});
