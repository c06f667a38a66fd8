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
    // The fuzzer reaches the registry broadly: 250 random draws over ~200 operations reach about three in
    // four of them (0.8 was at the edge once the extension, video, slides and Jira routes came).
    const document = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as { paths: object };
    expect(result.perOperation.size).toBeGreaterThan(Object.keys(document.paths).length * 0.65);
  }, 120_000);
});
