/**
 * Console passwords: scrypt (memory-hard, Node's built-in) with a per-password salt, stored as a
 * self-describing string so the cost can be raised later without breaking stored hashes.
 * Thresholds: docs/methodology.md#console-thresholds; design: docs/operations.md#console-sign-in.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** scrypt cost: 32 MiB of memory per hash (128 * N * r bytes); docs/operations.md#console-sign-in says why this N. */
export const SCRYPT_COST = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });
const KEY_LEN = 32;
const SALT_LEN = 16;

/** Bounds of an acceptable password, in characters. */
const PASSWORD_MIN_CHARS = 12;
const PASSWORD_MAX_CHARS = 256;

function scryptAsync(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize("NFC"), salt, KEY_LEN, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/**
 * Hash a password: `scrypt$N$r$p$<salt b64>$<hash b64>`.
 * @example (await hashPassword("correct horse battery")).startsWith("scrypt$32768$8$1$") // true
 */
export async function hashPassword(password: string, cost: ScryptCost = SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await scryptAsync(password, salt, cost);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export type ScryptCost = { N: number; r: number; p: number };

const ZERO_KEY = Buffer.alloc(KEY_LEN).toString("base64");

/**
 * A stored-hash look-alike that matches no password (its key is all zeros, which verification
 * refuses), so a sign-in for an unknown account costs the same scrypt work as a real one.
 */
export function dummyPasswordHash(cost: ScryptCost = SCRYPT_COST): string {
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${Buffer.alloc(SALT_LEN).toString("base64")}$${ZERO_KEY}`;
}

/** True when `password` matches `stored` (constant-time compare); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((v) => Number.isSafeInteger(v) && v! > 0)) return false;
  const salt = Buffer.from(parts[4]!, "base64");
  const expected = Buffer.from(parts[5]!, "base64");
  if (expected.length !== KEY_LEN) return false;
  const actual = await scryptAsync(password, salt, { N: N!, r: r!, p: p! });
  return timingSafeEqual(actual, expected) && parts[5] !== ZERO_KEY;
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== "string") return "password must be a string.";
  const chars = [...password].length;
  if (chars < PASSWORD_MIN_CHARS || chars > PASSWORD_MAX_CHARS) {
    return `password must be ${PASSWORD_MIN_CHARS} to ${PASSWORD_MAX_CHARS} characters long.`;
  }
  return null;
}
