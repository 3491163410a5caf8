// Run as `TZ=... node --import tsx test/time/_tz-probe.ts`: prints the probe and the process offset.
import { computeProbe } from "./_tz-cases";

process.stdout.write(JSON.stringify({ tz: process.env.TZ, localOffsetMin: new Date(Date.UTC(2024, 6, 1)).getTimezoneOffset(), probe: computeProbe() }));
