// The heatmap page's status as one state machine: what `#board[data-state]` and `#status` show,
// which board load the page waits for, and whether a refusal (401/402/403) stands, which stops the
// page from starting anything by itself (docs/methodology.md, "Heatmap page states"). Pure: the
// page applies each event and writes the result to the DOM in one place.
import { explainError, PageApiError } from "./source";

type BoardState = "idle" | "loading" | "ready" | "needs-key" | "error";

/** Who starts a board load: the user (a control) or the page itself (the first board, a live minute). */
export type LoadOrigin = "user" | "page";

export interface PageStatus {
  state: BoardState;
  /** The status line. */
  message: string;
  /** The API's code of the error shown ("error" for any other failure); null when none is. */
  errorCode: string | null;
  /** The newest load started: only its outcome is shown; an older one's is dropped. */
  load: number;
  /** A refusal stands: no stream, no reload, until the user starts a load. */
  refused: boolean;
}

export type PageEvent =
  | { kind: "load-started"; load: number; origin: LoadOrigin; symbol: string }
  | { kind: "board-loaded"; load: number; message: string }
  /** The board of `load`, or the session history loaded with it, failed. */
  | { kind: "load-failed"; load: number; error: unknown }
  /** The live stream ended on an error (only a refusal is shown: the board stays valid otherwise). */
  | { kind: "stream-failed"; error: unknown };

export const INITIAL_STATUS: PageStatus = { state: "idle", message: "", errorCode: null, load: 0, refused: false };

/** No key (401), a key not valid or not entitled (403), out of credits or capped (402). */
export function isRefusal(error: unknown): boolean {
  return error instanceof PageApiError && (error.status === 401 || error.status === 402 || error.status === 403);
}

/** Whether a load may start now: the page's own wait while a refusal stands; the user's always may. */
export function mayLoad(status: PageStatus, origin: LoadOrigin): boolean {
  return origin === "user" || !status.refused;
}

function failed(status: PageStatus, error: unknown): PageStatus {
  const refused = isRefusal(error);
  return {
    state: refused ? "needs-key" : "error",
    message: explainError(error),
    errorCode: error instanceof PageApiError ? error.code : "error",
    load: status.load,
    refused,
  };
}

/** The status after `event`; the same object when the event changes nothing (stale or not allowed). */
export function nextStatus(status: PageStatus, event: PageEvent): PageStatus {
  switch (event.kind) {
    case "load-started":
      if (!mayLoad(status, event.origin)) return status;
      return { state: "loading", message: `Loading the ${event.symbol} board...`, errorCode: null, load: event.load, refused: false };
    case "board-loaded":
      if (event.load !== status.load) return status;
      return { state: "ready", message: event.message, errorCode: null, load: status.load, refused: false };
    case "load-failed":
      // A superseded load's failure says nothing about the newer one, which settles on its own.
      if (event.load !== status.load) return status;
      return failed(status, event.error);
    case "stream-failed":
      return isRefusal(event.error) ? failed(status, event.error) : status;
  }
}

/**
 * `promise`, or a rejection with `message` after `ms`: a load whose response never comes still
 * settles, so the page never stays "loading".
 */
export function settleWithin<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
