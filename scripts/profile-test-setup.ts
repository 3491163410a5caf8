// Setup file of scripts/profile-test.config.ts: profiles each test file with the inspector and
// writes the profile to .vitest/profiles/ (vitest stops its workers before --cpu-prof could write).
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { afterAll, beforeAll } from "vitest";

const session = new Session();
beforeAll(async () => {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
});
afterAll(async () => {
  const { profile } = await session.post("Profiler.stop");
  mkdirSync(".vitest/profiles", { recursive: true });
  writeFileSync(`.vitest/profiles/${process.pid}-${Date.now()}.cpuprofile`, JSON.stringify(profile));
});
