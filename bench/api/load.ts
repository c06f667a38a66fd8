/**
 * A closed-loop HTTP load: `connections` keep-alive connections each send the next request as soon as the
 * previous answer is read, for `seconds`. Every latency is kept, so percentiles are exact.
 */
import { Pool } from "undici";
import { percentile } from "../lib/report.ts";

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  /** Answers that were not 2xx (a broken target must not look fast). */
  errors: number;
}

export interface LoadRequest {
  method?: "GET" | "POST" | "PATCH";
  path: string | (() => string);
  headers?: Record<string, string>;
  body?: () => string;
  /** The status every answer should have (default: any 2xx). */
  expectStatus?: number;
}

export async function load(
  origin: string,
  request: LoadRequest,
  { connections = 20, seconds = 5, warmupSeconds = 1 } = {},
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const run = async (until: number, latencies: number[] | null) => {
    let errors = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          const started = performance.now();
          const response = await pool.request({
            method: request.method ?? "GET",
            path: typeof request.path === "function" ? request.path() : request.path,
            headers: {
              ...request.headers,
              ...(request.body ? { "content-type": "application/json" } : {}),
            },
            body: request.body?.(),
          });
          await response.body.dump();
          const expected = request.expectStatus;
          if (expected ? response.statusCode !== expected : response.statusCode >= 300) errors++;
          latencies?.push(performance.now() - started);
        }
      }),
    );
    return errors;
  };
  await run(performance.now() + warmupSeconds * 1000, null);
  const latencies: number[] = [];
  const started = performance.now();
  const errors = await run(started + seconds * 1000, latencies);
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return {
    requestsPerSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    errors,
  };
}
