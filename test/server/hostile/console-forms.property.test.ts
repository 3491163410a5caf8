// Issue 36: hostile bodies and path ids for every form of the developer console (its POST
// endpoints, and the one query its GETs read), signed in and not. Every answer is below 500 (or a
// documented 503), a JSON `{error: {code, message}}` with a lower-case code when it is an error,
// and moves no credits. Long run: test/server/hostile/README.md.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeConsoleHarnesses, makeConsoleHarness, ORIGIN, type ConsoleClient, type ConsoleHarness } from "../console/_console-harness";
import { HOSTILE_VALUES, PROTOTYPE_NAMES, hostileRuns, hostileSeed, statusAllowed } from "./_hostile-inputs";

let h: ConsoleHarness;
let account: { accountId: string; key: string; keyId: string };
let signedIn: ConsoleClient;

beforeAll(async () => {
  h = await makeConsoleHarness({ signInLimits: { perAccount: 1_000_000, perIp: 1_000_000, windowMs: 60_000 } });
  account = await h.newAccount("top", 1000);
  signedIn = h.client();
  expect((await signedIn.signIn(account.accountId)).status).toBe(200);
});

afterAll(closeConsoleHarnesses);

/** Each form: its path (ids in it filled from `id`), the fields it reads, and whether it needs a session. */
const FORMS = [
  { path: "/console/api/sign-in", fields: ["accountId", "password"], session: false },
  { path: "/console/api/setup", fields: ["token", "password"], session: false },
  { path: "/console/api/sign-up", fields: ["inviteCode", "password"], session: false },
  { path: "/console/api/keys", fields: [], session: true },
  { path: "/console/api/keys/{id}/revoke", fields: [], session: true },
  { path: "/console/api/apps/{id}/revoke", fields: [], session: true },
  { path: "/console/api/invite", fields: ["inviteCode"], session: true },
  { path: "/console/api/monthly-cap", fields: ["monthlyCapCredits"], session: true },
  { path: "/console/api/sign-out", fields: [], session: true },
] as const;

/** Any JSON value a form field might be sent: hostile text, numbers at and past the bounds, wrong kinds. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...HOSTILE_VALUES) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(0, -1, 1.5, 1e12, 1e12 + 1, 2 ** 53, 1e308, -0, "100", "1e3", null, true, [], {}, [1], { toString: "x" }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** A body as sent: a JSON object of the form's fields and strangers, another JSON value, or text that is not JSON. */
function bodyFor(fields: readonly string[]): fc.Arbitrary<string> {
  const names = fc.oneof(fc.constantFrom(...fields, ...fields, ...PROTOTYPE_NAMES), fc.string({ maxLength: 8 }));
  const object = fc.array(fc.tuple(names, fieldValue), { maxLength: 4 }).map((entries) => {
    // Written by hand so `__proto__` and repeated keys reach the server as sent.
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",")}}`;
  });
  return fc.oneof(
    { weight: 6, arbitrary: object },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? "") },
    { weight: 1, arbitrary: fc.constantFrom("", "{", '{"a":}', "null", "[]", "\u0000", "x".repeat(70_000), '{"monthlyCapCredits":1e400}') },
  );
}

const pathId = fc.oneof(fc.constantFrom(...HOSTILE_VALUES.filter((v) => v.length < 200)), fc.string({ maxLength: 20 }));

const RUNS = Math.max(3, Math.ceil(hostileRuns(270) / FORMS.length));
const SEED = hostileSeed(36);

async function post(path: string, body: string, session: boolean): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Origin: ORIGIN };
  if (session) {
    if (signedIn.cookie) headers.Cookie = signedIn.cookie;
    headers["X-CSRF-Token"] = signedIn.csrf;
  }
  const request = new Request(ORIGIN + path, { method: "POST", headers, body });
  Object.defineProperty(request, "ip", { value: "198.51.100.7" });
  return h.app.fetch(request);
}

async function expectEnveloped(res: Response, what: string): Promise<void> {
  const text = await res.text();
  let body: { error?: { code?: unknown; message?: unknown } } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: fails below
  }
  const code = typeof body?.error?.code === "string" ? body.error.code : undefined;
  expect(statusAllowed(res.status, code), `${res.status} ${text.slice(0, 200)} for ${what}`).toBe(true);
  if (res.status >= 400) {
    expect(code, `error envelope for ${what}: ${text.slice(0, 200)}`).toEqual(expect.any(String));
    expect(code).toBe(code!.toLowerCase());
    expect(body!.error!.message).toEqual(expect.any(String));
  }
}

describe("hostile console forms", () => {
  it.each(FORMS)("POST $path", async (form) => {
    await fc.assert(
      fc.asyncProperty(bodyFor(form.fields), pathId, fc.boolean(), async (body, id, encode) => {
        h.wall.ms += 1_000;
        let path: string;
        try {
          path = new URL(ORIGIN + form.path.replace("{id}", encode ? encodeURIComponent(id) : id)).pathname;
        } catch {
          return; // Not a URL (or a lone surrogate nothing can encode): no browser sends it.
        }
        const before = await h.accounts.balance(account.accountId);
        const res = await post(path, body, form.session);
        await expectEnveloped(res, `POST ${path} ${body.slice(0, 120)}`);
        expect(await h.accounts.balance(account.accountId)).toBe(before);
        // Signing out (or in, which replaces the session) is a legitimate outcome: sign in again for the next case.
        if (res.ok && (form.path.endsWith("sign-out") || !form.session)) {
          signedIn = h.client();
          expect((await signedIn.signIn(account.accountId)).status).toBe(200);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it("GET /console/api/usage?days=...", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...HOSTILE_VALUES, "0", "1", "31", "90", "91", "-1", "1.5"), fc.string({ maxLength: 12 })),
        fc.boolean(),
        async (days, encode) => {
          let query: string;
          try {
            query = new URL(`${ORIGIN}/?days=${encode ? encodeURIComponent(days) : days}`).search;
          } catch {
            return;
          }
          const res = await signedIn.get(`/console/api/usage${query}`);
          await expectEnveloped(res, `days=${days.slice(0, 40)}`);
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
