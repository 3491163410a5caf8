/**
 * The demo account `serve` creates on first start, so a fresh machine has a working key.
 * See docs/operations.md#first-start.
 */
import type { AccountAdmin } from "./admin-types";

/** Label that marks the demo account in the store. */
const DEMO_ACCOUNT_LABEL = "demo";

/**
 * Make sure a `top` demo account exists. The key is returned only when the account is created
 * now (keys are stored as hashes and cannot be shown again).
 * @example
 * const demo = await ensureDemoAccount(accounts);
 * if (demo.key) console.log(`curl -H "Authorization: Bearer ${demo.key}" ...`);
 */
export async function ensureDemoAccount(service: Pick<AccountAdmin, "findAccountByLabel" | "createAccount">): Promise<{
  accountId: string;
  key: string | null;
  created: boolean;
}> {
  const existing = await service.findAccountByLabel(DEMO_ACCOUNT_LABEL);
  if (existing) return { accountId: existing, key: null, created: false };
  const { accountId, key } = await service.createAccount({ plan: "top", label: DEMO_ACCOUNT_LABEL });
  return { accountId, key, created: true };
}
