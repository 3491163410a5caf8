/**
 * API key material: generation, hashing, constant-time comparison and header parsing.
 * Keys are `osk_live_` + 43 base62 characters (32 random bytes); only their SHA-256 is stored.
 * See docs/api.md#accounts-and-keys.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Recognisable prefix of every key (secret scanners can match `osk_live_[0-9A-Za-z]{43}`). */
export const KEY_PREFIX = "osk_live_";
/** Characters of the key shown in listings after the prefix (enough to tell keys apart). */
const KEY_DISPLAY_CHARS = 6;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Base62 of a byte string, left-padded to the full width for its length.
 * @example base62(Uint8Array.of(255)) // "47" (4 * 62 + 7)
 */
export function base62(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  const width = Math.ceil((bytes.length * 8) / Math.log2(62));
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, "0");
}

/** A new random id such as `acct_3kTqN0pX8aZ1bC9d` (12 random bytes). */
export function newId(prefix: "acct" | "key"): string {
  return `${prefix}_${base62(randomBytes(12))}`;
}

/**
 * A new secret key: `osk_live_` + base62 of 32 random bytes (43 characters, 256 bits).
 * @example generateKey().startsWith("osk_live_") // true
 */
export function generateKey(): string {
  return KEY_PREFIX + base62(randomBytes(32));
}

/** SHA-256 of the key's UTF-8 bytes (32 bytes). A fast hash suffices: keys carry 256 bits. */
export function hashKey(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

/** The non-secret part shown in listings: the prefix plus a few characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + KEY_DISPLAY_CHARS);
}

const ZERO_HASH = Buffer.alloc(32);

/**
 * Constant-time equality of a computed hash and a stored one (or a dummy when no row matched,
 * so the miss path does the same work as the hit path).
 */
export function hashesEqual(computed: Buffer, stored: Uint8Array | null | undefined): boolean {
  const other = stored && stored.length === computed.length ? Buffer.from(stored) : ZERO_HASH;
  const same = timingSafeEqual(computed, other);
  return same && other !== ZERO_HASH;
}

/**
 * The key carried by an `Authorization` header: `Bearer <key>` (scheme case-insensitive) or a
 * bare key. Null when the header is absent or carries nothing.
 * @example keyFromAuthorization("Bearer osk_live_abc") // "osk_live_abc"
 */
export function keyFromAuthorization(header: string | null | undefined): string | null {
  if (header == null) return null;
  let value = header.trim();
  const bearer = /^bearer(?:\s+|$)/i.exec(value);
  if (bearer) value = value.slice(bearer[0].length).trim();
  return value.length > 0 ? value : null;
}
