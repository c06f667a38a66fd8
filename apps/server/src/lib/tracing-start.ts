/**
 * Preloaded before the server's entry (`node --import tsx --import ./apps/server/src/lib/tracing-start.ts
 * apps/server/src/main.ts`, as `npm run serve` and deploy/*.service do): starts tracing, when configured,
 * before any module of the app loads, so the http and pg instrumentations patch those modules as they load.
 * (A first import of main.ts could not: its siblings run while it awaits.) Without the preload, app.ts
 * still starts tracing, with request spans only. An invalid environment is left to main.ts to report.
 */
import { loadConfig } from "../env.ts";

const tracing = (() => {
  try {
    return loadConfig().tracing;
  } catch {
    return null;
  }
})();
if (tracing) (await import("./tracing.ts")).startTracing(tracing);
