// The package's version, read once from package.json: one level above this file both in a
// checkout (server/version.ts: the repository's, `optionscope`) and in the published server
// package (dist/cli.js, dist/server.js: `@optionscope/server`'s, released at the library's version).
import { readFileSync } from "node:fs";

let cached: string | undefined;

/**
 * The `version` of optionscope's (or @optionscope/server's) package.json ("0.0.0" when it cannot be read).
 * @example packageVersion() // "0.1.0"
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { name?: string; version?: string };
    cached = (pkg.name === "optionscope" || pkg.name === "@optionscope/server") && typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    cached = "0.0.0";
  }
  return cached;
}
