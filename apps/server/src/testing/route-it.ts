/**
 * In a file that runs on both drivers (`drivers()`), the `it` of a test of the routes' own rules: registered
 * on the production driver alone when both run, as `routeDrivers()` would (ADR 0019). The file's tests whose
 * subject is the database itself (concurrent writers, counters, events in the write's transaction) keep
 * plain `it` and run on both. A suite left with no test on a driver starts no app for it.
 */
import { it } from "vitest";
import { defaultDriver, type TestDriver } from "./test-db.ts";

export function routeIt(
  driver: TestDriver,
): (name: string, run: () => Promise<void>, timeout?: number) => void {
  return driver === defaultDriver() ? it : () => {};
}
