// Runs an in-process CLI entry (`runAccountsCli`, `runAppsCli`, ...) with `--json`, asserts it
// exited 0 (showing its stderr otherwise) and returns the parsed output.
import { expect } from "vitest";

type CliOutput = { stdout: (t: string) => void; stderr: (t: string) => void };
type CliEntry = (argv: string[], env: Record<string, string>, out: CliOutput) => Promise<number>;

export async function cliJson(run: CliEntry, argv: string[], env: Record<string, string>): Promise<any> {
  let stdout = "";
  let stderr = "";
  const exit = await run([...argv, "--json"], env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  expect(exit, stderr).toBe(0);
  return JSON.parse(stdout);
}
