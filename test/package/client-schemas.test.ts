import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { type PackResult, waitForPackage } from "./_wait";

// The typed client's schemas as the packed package ships them (docs/api.md#typed-client): the
// route table carries none, `validateResponses: true` finds the schema table beside the client
// file at run time (ESM and CJS builds), and `optionscope/client/schemas` hands the same table to
// a caller. One child process in the consumer that installed the tarball; the fetch is faked, so
// the checks are the schemas' own verdicts (getServerTime's data is an integer).
const PROBE = `
import { createRequire } from "node:module";
const lib = await import("optionscope");
const { operationSchemas } = await import("optionscope/client/schemas");
const cjs = createRequire(process.cwd() + "/")("optionscope");
const answer = (body) => async () => new Response(body, { status: 200 });
const verdict = async (createClient, body, validateResponses) => {
  const api = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: answer(body), validateResponses, maxAttempts: 1, rateLimitPacing: false });
  try {
    return String((await api.getServerTime()).data);
  } catch (e) {
    return e.name;
  }
};
process.stdout.write(JSON.stringify({
  tableHasSchemas: Object.values(lib.operations).some((op) => Object.values(op).some((v) => v !== null && typeof v === "object")),
  schemaTableRoutes: Object.keys(operationSchemas).length === Object.keys(lib.operations).length,
  esmTrue: [await verdict(lib.createClient, "1.5", true), await verdict(lib.createClient, "1700000000", true)],
  esmTable: await verdict(lib.createClient, "1.5", operationSchemas),
  cjsTrue: [await verdict(cjs.createClient, "1.5", true), await verdict(cjs.createClient, "1700000000", true)],
  off: await verdict(lib.createClient, "1.5", false),
}));
`;

describe("the packed typed client's schemas", () => {
  let pack: PackResult;
  beforeAll(async () => {
    pack = (await waitForPackage()).pack;
  }, 600_000);

  it("validateResponses: true loads the schema table in ESM and CJS; the subpath gives the same table", () => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", PROBE], { cwd: pack.consumer, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      tableHasSchemas: false,
      schemaTableRoutes: true,
      esmTrue: ["ZodError", "1700000000"],
      esmTable: "ZodError",
      cjsTrue: ["ZodError", "1700000000"],
      off: "1.5",
    });
  }, 60_000);
});
