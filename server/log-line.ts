import type { AppServices } from "./services";

/**
 * Write one structured log line (`ts`, `level` default info, then the fields). A failing log sink
 * never fails a request or a stream.
 */
export function logLine(services: Pick<AppServices, "logger" | "wallNowMs">, fields: Record<string, unknown>): void {
  try {
    services.logger({ ts: new Date(services.wallNowMs()).toISOString(), level: "info", ...fields });
  } catch {
    // swallowed on purpose: see above
  }
}
