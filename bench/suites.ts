// The bench suites `npm run bench` runs, in order. Add a suite by importing it here.
import { kernelsSuite } from "./kernels.bench";
import { positioningSuite } from "./positioning.bench";
import { priceSuite } from "./price.bench";
import { flowSuite } from "./flow.bench";
import { volSuite } from "./vol.bench";
import { extendedStatsSuite } from "./extended-stats.bench";
import { consoleSuite } from "./console.bench";
import { darkPoolSuite } from "./dark-pool.bench";
import { flowMarketSuite } from "./flow-market.bench";
import { flowRefSuite } from "./flow-ref.bench";

/** What a suite reports: a table for people, checks for targets, free-form notes. */
export interface SuiteReport {
  table: Array<Record<string, string | number>>;
  checks: Array<{ name: string; pass: boolean; detail: string }>;
  notes: string[];
}

/** A bench suite. */
export interface Suite {
  name: string;
  run(): Promise<SuiteReport>;
}

export const suites: Suite[] = [
  kernelsSuite,
  positioningSuite,
  priceSuite,
  flowSuite,
  flowMarketSuite,
  flowRefSuite,
  darkPoolSuite,
  volSuite,
  extendedStatsSuite,
  consoleSuite,
];
