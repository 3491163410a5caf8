import { BaseSequencer } from "vitest/node";

/** Longest test files first in each project (duration-sequencer.mjs). */
export declare class DurationSequencer extends BaseSequencer {}
