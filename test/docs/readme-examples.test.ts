import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

// The README's library example is run as written: a user who copies it gets what it says.
const root = join(__dirname, "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

function codeBlockAfter(heading: string): string {
  const at = readme.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`README has no "## ${heading}" section`);
  const m = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!m) throw new Error(`no ts block under ${heading}`);
  return m[1];
}

describe("README examples", () => {
  const dir = join(root, ".vitest", "readme");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the Library example runs and prints the engine, spot and levels", async () => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "library-example.ts");
    writeFileSync(file, codeBlockAfter("Library") + "\nexport {};\n");
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import(file);
      expect(log).toHaveBeenCalledTimes(1);
      const [engineName, spot, kingStrike] = log.mock.calls[0];
      expect(engineName).toBe("wasm");
      expect(spot).toBeGreaterThan(0);
      expect(typeof kingStrike).toBe("number");
    } finally {
      log.mockRestore();
    }
  });

  it("the classifyNodes and impliedVol results shown in the README are what the library returns", async () => {
    const { classifyNodes, impliedVol } = await import("optionscope");
    expect(
      classifyNodes(
        [
          { strike: 95, value: -30 },
          { strike: 100, value: 50 },
          { strike: 105, value: 100 },
        ],
        98,
      ),
    ).toEqual(["barney", "gatekeeper", "king"]);
    const iv = impliedVol({ price: 4.759422392871536, spot: 42, strike: 40, tYears: 0.5, rate: 0.1, dividendYield: 0, right: "C" });
    expect(iv.ok).toBe(true);
    if (iv.ok) {
      expect(Math.abs(iv.vol - 0.2)).toBeLessThan(1e-14);
      expect(iv.iterations).toBeLessThanOrEqual(3);
    }
  });
});
