// The chart page's calls to our own API ({base}/v1/...), with the stored key sent as
// `Authorization: Bearer`. A failure is an Error carrying the API's own message.

/** Where the page keeps the API key (the heatmap page reads the same one). */
export const KEY_STORAGE = "optionscope.apiKey";

/** The stored key, "" when none. */
export const storedKey = (): string => localStorage.getItem(KEY_STORAGE) || "";

/** The message of an error body: UDF's `errmsg`, ours (`error.message`), a bare `error`, else the status. */
function errorMessage(body: unknown, status: number): string {
  const b = body as { errmsg?: unknown; error?: unknown } | null;
  const message = b !== null && typeof b === "object" ? b.errmsg || (b.error && (b.error as { message?: unknown }).message) || b.error : undefined;
  return String(message || `HTTP ${status}`);
}

/**
 * A caller of `{base}/v1/{path}`: the JSON body (or the text when it is not JSON). `onCredits`
 * hears every `X-Credits-Remaining`.
 */
export function apiCaller(base: string, onCredits: (credits: string) => void) {
  return async function api<T>(path: string, query?: Record<string, string>): Promise<T> {
    const key = storedKey();
    const url = `${base}/v1/${path}${query ? `?${new URLSearchParams(query).toString()}` : ""}`;
    const res = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
    const credits = res.headers.get("X-Credits-Remaining");
    if (credits !== null) onCredits(credits);
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    if (!res.ok) throw new Error(errorMessage(body, res.status));
    return body as T;
  };
}
