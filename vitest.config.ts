import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
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
          include: ["packages/**/src/**/*.test.ts", "apps/server/src/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The web app's rules, hooks and components, rendered in happy-dom with Testing Library.
        test: {
          name: "web",
          sequence: { groupOrder: 0 },
          // Runs beside the unit project, which needs the same number of workers.
          maxWorkers: 3,
          include: ["apps/web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          testTimeout: 30_000,
        },
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
