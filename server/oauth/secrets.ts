/**
 * Opaque OAuth secrets (codes, tokens, client secrets): random strings with a readable prefix,
 * stored only as SHA-256 hashes. PKCE S256 is checked here too.
 * See docs/api.md#oauth-sign-in-for-tool-clients.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Prefixes make a leaked secret recognisable (and tell access tokens from API keys). */
export const SECRET_PREFIX = {
  accessToken: "osat_",
  refreshToken: "osrt_",
  code: "osac_",
  clientId: "oscl_",
  clientSecret: "oscs_",
  app: "app_",
} as const;

/**
 * A new secret: the prefix plus base64url of `bytes` random bytes (32 bytes = 256 bits).
 * @example newSecret("osat_") // "osat_Vq3...": 48 characters
 */
export function newSecret(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString("base64url");
}

/** SHA-256 of a secret, hex: what the store keeps and looks up by. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** True when `secret` hashes to `storedHex`, compared in constant time. */
export function secretMatches(secret: string, storedHex: string | null | undefined): boolean {
  if (!storedHex) return false;
  const a = Buffer.from(hashSecret(secret), "hex");
  const b = Buffer.from(storedHex, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** RFC 7636 code verifier grammar: 43-128 characters of `[A-Za-z0-9-._~]`. */
const CODE_VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 S256 challenge grammar: base64url of a SHA-256 digest (43 characters, no padding). */
export const CODE_CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The S256 challenge of a verifier: `BASE64URL(SHA256(ASCII(verifier)))` (RFC 7636 section 4.2).
 * @example s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
 */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** True when `verifier` is well-formed and its S256 challenge equals `challenge` (constant time). */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!CODE_VERIFIER_RE.test(verifier)) return false;
  const a = Buffer.from(s256Challenge(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
