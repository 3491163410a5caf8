/**
 * The `/authorize` sign-in page: a plain HTML form (no script) that asks for an API key of the
 * account the tool client will act for. Every value written into it is HTML-escaped.
 */

/** HTML-escape text for element content and double-quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Headers of every HTML page: never cached, never framed (clickjacking), no script at all. */
export const PAGE_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.3rem}code{background:#f1f3f5;padding:0 .25rem;border-radius:3px}
label{display:block;margin:1rem 0 .3rem;font-weight:600}input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1.2rem;font:inherit;cursor:pointer}.err{color:#b00020;font-weight:600}.small{color:#555;font-size:.85rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/**
 * The sign-in form. `hidden` carries the authorization request through the POST unchanged.
 * @example signInPage({ clientName: "Claude", redirectHost: "claude.ai", resource: "http://localhost:8080/mcp", action: "/mcp/oauth/authorize", hidden: {...} })
 */
export function signInPage(o: {
  clientName: string | null;
  redirectHost: string;
  resource: string;
  action: string;
  hidden: Record<string, string>;
  error?: string;
}): string {
  const name = escapeHtml(o.clientName ?? "An MCP client");
  const hidden = Object.entries(o.hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  const error = o.error ? `<p class="err" role="alert">${escapeHtml(o.error)}</p>` : "";
  return page(
    "Connect a tool client to optionscope",
    `<h1>Connect ${name} to optionscope</h1>
<p><strong>${name}</strong> (returning to <code>${escapeHtml(o.redirectHost)}</code>) asks to call the optionscope tools at
<code>${escapeHtml(o.resource)}</code> as your account. Its calls are charged to the account's credits, like REST calls.</p>
${error}<form method="post" action="${escapeHtml(o.action)}">${hidden}
<label for="api_key">API key of the account</label>
<input id="api_key" name="api_key" type="password" autocomplete="off" spellcheck="false" required placeholder="osk_live_...">
<button type="submit">Connect</button></form>
<p class="small">The key is checked once and never given to the client; the client receives its own short-lived token.
The connection appears as a connected app (<code>optionscope apps list</code>) and can be revoked at any time
(<code>optionscope apps revoke APP_ID</code>).</p>`,
  );
}

/** A page for authorization requests that cannot be sent back to the client (unknown client, bad redirect URI). */
export function errorPage(message: string): string {
  return page("Sign-in request rejected", `<h1>This sign-in request cannot be completed</h1><p class="err">${escapeHtml(message)}</p>`);
}
