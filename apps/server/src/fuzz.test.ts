/**
 * Generated malformed requests to every route, as every kind of caller, on both databases: never a
 * 5xx, and a refused request changes nothing stored (testing/fuzz.ts). Bounded for `npm test`
 * (FUZZ_RUNS requests per database, 250 by default); `npm run bench:reliability` runs far more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzApp } from "./testing/fuzz.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";
import { routeDrivers } from "./testing/test-db.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);

describe.each(routeDrivers())("fuzzing every route (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver });
  });
  afterAll(() => t.close());

  it(`answers ${RUNS} malformed requests without a 5xx, and refusals change nothing`, async () => {
    const result = await fuzzApp(t, { runs: RUNS });
    expect(result.requests).toBe(RUNS);
    expect(result.serverErrors).toEqual([]);
    expect(result.changedOnRefusal).toEqual([]);
    // Every operation of the registry is drawn (as many as the runs allow).
    expect(result.operations).toBeGreaterThan(100);
    expect(result.perOperation.size).toBe(Math.min(RUNS, result.operations));
  }, 120_000);
});
