import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./scripts/test-sequencer.ts";

const web = {
  sequence: { groupOrder: 0 },
  // Runs beside the unit project, which needs the same number of workers.
  maxWorkers: 3,
  include: ["apps/web/src/**/*.test.{ts,tsx}"],
  environment: "happy-dom",
  testTimeout: 30_000,
};
/** Web test files that mock modules, stub globals or fake timers (read from the files, so it stays true). */
const webFilesThatMock = readdirSync("apps/web/src", { recursive: true, encoding: "utf8" })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `apps/web/src/${file}`)
  .filter((file) =>
    /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/.test(readFileSync(file, "utf8")),
  );

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          // API tests mostly wait on a database, a socket or Chromium: more workers than the 2 cores keep
          // both busy. One worker runs many files on one module graph (no test mocks modules), so the
          // server's modules, PGlite's WASM and the migrated database are loaded once per worker, not per file.
          maxWorkers: 3,
          isolate: false,
          include: [
            "packages/**/src/**/*.test.ts",
            "apps/server/src/**/*.test.ts",
            "apps/extension/src/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // An `expect.poll` waits for another process, a socket or a ledger reader: Vitest's 1 s default
          // is within reach of a loaded machine (the ops tests run several server processes beside them).
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        // The web app's rules, hooks and components, rendered in happy-dom with Testing Library. One happy-dom
        // and one module graph per worker, not per file: isolated, the 60 files cost 106 CPU-seconds, nearly
        // all of it starting happy-dom and importing React; shared, 19. Files render with their own QueryClient
        // and clean up after each test (Testing Library).
        test: {
          ...web,
          name: "web",
          isolate: false,
          exclude: webFilesThatMock,
        },
      },
      {
        // Files that mock a module or stub a global keep a module graph and a happy-dom of their own: a mock
        // registered after another file loaded the real module would not take, and a stub could leak.
        test: { ...web, name: "web-isolated", include: webFilesThatMock },
      },
      {
        test: {
          name: "e2e",
          // After the unit project, so the two never compete for the 2 cores.
          sequence: { groupOrder: 1 },
          include: ["e2e/**/*.e2e.test.ts"],
          environment: "node",
          globalSetup: ["e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // A journey's `expect.poll` waits for what the app shows; 1 s (Vitest's default) is within reach
          // of a loaded machine's round trip through the app and the browser.
          expect: { poll: { timeout: 10_000 } },
          maxWorkers: 2,
          // Files run one after another in a worker on one module graph (the app's modules are loaded once
          // per worker, not per file) and share the worker's browser (e2e/harness.ts); each still starts its
          // own app on its own database.
          isolate: false,
          // A browser journey that fails once under a loaded CI machine is run again once; a real
          // failure fails twice. Locally a failure is reported at once.
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
