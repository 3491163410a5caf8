/**
 * The console's session cookie: `HttpOnly`, `SameSite=Strict`, and over TLS `Secure` with the
 * `__Host-` prefix (so no sibling host or plain-HTTP page can plant or overwrite it).
 * See docs/operations.md#console-sign-in.
 */

const SECURE_NAME = "__Host-osc_session";
const PLAIN_NAME = "osc_session";

/** The cookie's name and path for a request served over TLS or not. */
function cookieSpec(secure: boolean): { name: string; path: string } {
  return secure ? { name: SECURE_NAME, path: "/" } : { name: PLAIN_NAME, path: "/console" };
}

/**
 * The `Set-Cookie` value that opens (or, with `maxAgeS` 0, ends) a session.
 * @example sessionCookie("abc", 3600, false) // "osc_session=abc; Path=/console; Max-Age=3600; HttpOnly; SameSite=Strict"
 */
export function sessionCookie(value: string, maxAgeS: number, secure: boolean): string {
  const { name, path } = cookieSpec(secure);
  return `${name}=${value}; Path=${path}; Max-Age=${Math.max(0, Math.floor(maxAgeS))}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** The session id a request carries under the name for its transport, or null. */
export function sessionIdFrom(cookieHeader: string | null, secure: boolean): string | null {
  if (!cookieHeader) return null;
  const { name } = cookieSpec(secure);
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[0-9A-Za-z]{1,128}$/.test(value) ? value : null;
    }
  }
  return null;
}
