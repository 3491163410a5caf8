// CPU profile of a test file's worker, to find where a slow test spends its time:
//   npx vitest run -c scripts/profile-test.config.ts test/market/chain.test.ts
//   node scripts/profile-summary.mjs .vitest/profiles/<pid>-<time>.cpuprofile
import { mergeConfig } from "vitest/config";
import base from "../vitest.config";

export default mergeConfig(base, { test: { setupFiles: ["./scripts/profile-test-setup.ts"] } });
