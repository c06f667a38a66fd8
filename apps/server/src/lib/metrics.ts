/**
 * What an operator watches: `/metrics` in Prometheus's text format (prom-client). Requests are counted and
 * timed per route pattern (`/api/projects/:projectId`, never the raw URL, so ids do not explode the series);
 * the job queue, capture queue, mail outbox and connection pool are read from the database when scraped.
 *
 * Off unless configured (METRICS_TOKEN and/or METRICS_ALLOW_LOOPBACK): the route is not even registered.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { DatabaseHandle } from "../db/index.ts";
import { route } from "./routes.ts";

/** Capture durations, observed by the capture worker of this process (modules/captures). */
export const captureDurations = new Histogram({
  name: "redline_capture_duration_seconds",
  help: "Time from a capture job's start to its end in this process, by outcome",
  labelNames: ["outcome"] as const,
  buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120],
  registers: [],
});

export interface MetricsSources {
  database: DatabaseHandle;
  /** Open WebSocket connections on this process. */
  websockets(): number;
  /** The capture jobs' queue name. */
  captureQueue: string;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** Counts and times every request; registers `GET /metrics` when the config turns it on. */
export function installMetrics(
  app: FastifyInstance,
  sources: MetricsSources,
  access: { token: string | null; allowLoopback: boolean },
): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "redline_" });
  registry.registerMetric(captureDurations);
  const requests = new Counter({
    name: "redline_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "redline_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook("onResponse", async (request, reply) => {
    const labels = {
      method: request.method,
      // A request no route matched (a 404, a probe) is one series, whatever its URL.
      route: request.routeOptions.url ?? "(unmatched)",
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });
  installSourceGauges(registry, sources);

  if (!access.token && !access.allowLoopback) return;
  const expected = access.token ? digest(access.token) : null;
  const mayRead = (request: FastifyRequest) => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    if (expected && bearer && timingSafeEqual(digest(bearer), expected)) return true;
    // Loopback means this machine's own scraper, connected directly: a request a local reverse proxy
    // forwards (X-Forwarded-For) comes from anywhere, so it needs the token.
    return (
      access.allowLoopback &&
      LOOPBACK.has(request.socket.remoteAddress ?? "") &&
      !request.headers["x-forwarded-for"] &&
      !request.headers.forwarded
    );
  };
  app.get(
    "/metrics",
    route({
      summary: "Prometheus metrics (METRICS_TOKEN bearer, or loopback when allowed)",
      action: "public",
    }),
    async (request, reply) => {
      if (!mayRead(request))
        return reply.status(401).header("www-authenticate", 'Bearer realm="metrics"').send({
          error: "Unauthorized",
          code: "unauthorized",
          message: "Metrics need the bearer token set in METRICS_TOKEN.",
        });
      return reply.header("content-type", registry.contentType).send(await registry.metrics());
    },
  );
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Gauges read when scraped. A source that does not answer (the database down) leaves its gauge empty. */
function installSourceGauges(
  registry: Registry,
  { database, websockets, captureQueue }: MetricsSources,
): void {
  const rows = async <Row>(text: string, values?: unknown[]) => {
    try {
      return (await database.executeSql(text, values)).rows as Row[];
    } catch {
      return null;
    }
  };
  new Gauge({
    name: "redline_websocket_connections",
    help: "Open WebSocket connections (realtime) on this process",
    registers: [registry],
    collect() {
      this.set(websockets());
    },
  });
  new Gauge({
    name: "redline_jobs",
    help: "Jobs on the durable queue (pg-boss), by queue and state",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await rows<{ name: string; state: string; count: number }>(
        "select name, state::text as state, count(*)::int as count from pgboss.job group by name, state",
      );
      for (const row of counts ?? []) this.set({ queue: row.name, state: row.state }, Number(row.count));
    },
  });
  /** A gauge of one `count(*)` query's answer. */
  const countGauge = (name: string, help: string, text: string, values?: unknown[]) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const [row] = (await rows<{ count: number }>(text, values)) ?? [];
        if (row) this.set(Number(row.count));
      },
    });
  countGauge(
    "redline_capture_queue_depth",
    "Capture jobs waiting for a worker (created or waiting to retry)",
    "select count(*)::int as count from pgboss.job where name = $1 and state in ('created', 'retry')",
    [captureQueue],
  );
  countGauge(
    "redline_mail_outbox_backlog",
    "Mails stored but not yet delivered (the durable outbox)",
    "select count(*)::int as count from outgoing_mails where sent_at is null",
  );
  if (database.pool) {
    const pool = database.pool;
    new Gauge({
      name: "redline_db_pool_connections",
      help: "PostgreSQL pool connections, by state (total, idle, waiting clients)",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const state = pool();
        this.set({ state: "total" }, state.total);
        this.set({ state: "idle" }, state.idle);
        this.set({ state: "waiting" }, state.waiting);
      },
    });
  }
}
