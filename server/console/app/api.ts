// The console page's JSON calls to {base}/api/*: the session cookie goes by itself (same origin);
// every state change carries the session's CSRF token in `X-CSRF-Token`.

/** A refused call: the API's message, with its `error.code` and the HTTP status. */
export interface ConsoleCallError extends Error {
  code?: string;
  status?: number;
}

interface ErrorBody {
  error?: { code?: string; message?: string };
}

/** A caller of the console's API under `base` (`/console`), holding the signed-in session's CSRF token. */
export function consoleApi(base: string) {
  let csrf = "";
  return {
    /** The token of the session just opened ("" once signed out). */
    setCsrf(token: string): void {
      csrf = token;
    },
    async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = { Accept: "application/json" };
      if (method !== "GET") {
        headers["Content-Type"] = "application/json";
        headers["X-CSRF-Token"] = csrf;
      }
      const res = await fetch(`${base}/api${path}`, {
        method,
        headers,
        credentials: "same-origin",
        body: method === "GET" ? undefined : JSON.stringify(body || {}),
      });
      const data = (await res.json()) as T & ErrorBody;
      if (!res.ok) {
        const err: ConsoleCallError = new Error(data.error?.message || res.statusText);
        err.code = data.error?.code;
        err.status = res.status;
        throw err;
      }
      return data;
    },
  };
}
