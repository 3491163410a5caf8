/**
 * What every `optionscope` subcommand shares: where it writes, its exit codes, what counts as a
 * usage error, and output that is JSON with `--json` and text without.
 * See docs/operations.md#accounts-cli.
 */
import { UsageError } from "../config";

/** Where the CLI writes; tests pass collectors, `main.ts` passes nothing (process streams). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The process's own streams. */
export const processIo: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

/** Exit codes: 0 done, 1 the operation failed (not found, limit), 2 usage error, 3 store error. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_STORE = 3;

/**
 * True for a mistake on the command line: a `UsageError`, or what `node:util` `parseArgs` throws
 * (unknown flag, missing value).
 * @example isUsageError(new UsageError("Unknown command")) // true
 */
export function isUsageError(error: unknown): boolean {
  if (error instanceof UsageError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}

/** One command run's output channel; see `cliOutput`. */
export interface CliOutput {
  /** JSON output asked for; set it from the parsed `--json` once the arguments parse. */
  json: boolean;
  /** `data` as one JSON line on stdout with `--json`, else `text`. */
  out(data: unknown, text: string): void;
  /** The error on stderr (`{"error":{code,message}}` with `--json`, else `error: message`); returns `exitCode`. */
  fail(exitCode: number, errorCode: string, message: string): number;
}

/**
 * Output for one run. `json` starts from a plain scan of `argv`, so an argument that does not
 * parse is still reported in the format asked for.
 * @example const o = cliOutput(io, ["account", "list", "--json"]); o.out([], "No accounts.\n") // writes "[]\n"
 */
export function cliOutput(io: CliIo, argv: readonly string[]): CliOutput {
  const o: CliOutput = {
    json: argv.includes("--json"),
    out: (data, text) => io.stdout(o.json ? JSON.stringify(data) + "\n" : text),
    fail: (exitCode, errorCode, message) => {
      io.stderr(o.json ? JSON.stringify({ error: { code: errorCode, message } }) + "\n" : `error: ${message}\n`);
      return exitCode;
    },
  };
  return o;
}
