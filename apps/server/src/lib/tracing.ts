/**
 * OpenTelemetry traces, exported over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` (`{endpoint}/v1/traces`).
 * Loaded only when that is set (app.ts and main.ts import this file dynamically): with tracing off, no
 * OpenTelemetry code runs.
 *
 * Spans: every Fastify request (route, hooks, handler: @fastify/otel, a plugin, so it works whenever the
 * app is built), and outgoing HTTP and `pg` queries (auto-instrumentations: they patch the modules loaded
 * after `startTracing`, which is why main.ts starts tracing before it imports the app).
 */
import { register } from "node:module";
import FastifyOtelInstrumentation from "@fastify/otel";
import { context, propagation, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { NodeSDK, tracing } from "@opentelemetry/sdk-node";
import type { FastifyInstance } from "fastify";

export interface TracingOptions {
  endpoint: string;
  serviceName: string;
}

export interface Tracing {
  /** Spans every request of this app (register before the routes). */
  instrument(app: FastifyInstance): Promise<void>;
  /** Sends the spans still buffered (at shutdown). */
  flush(): Promise<void>;
  /** Shuts the SDK down and unregisters it (tests: the suite's workers run many files in one process). */
  stop(): Promise<void>;
}

let started: (Tracing & { options: TracingOptions }) | null = null;

/** Starts the SDK once per process (a second call with other options is refused). */
export function startTracing(options: TracingOptions): Tracing {
  if (started) {
    if (started.options.endpoint !== options.endpoint || started.options.serviceName !== options.serviceName)
      throw new Error("Tracing is already started with another endpoint or service name.");
    return started;
  }
  // `pg`, imported by an ES module, can be patched too (import-in-the-middle), not only require()d modules
  // (Fastify's node:http). Only it: wrapping every module breaks the named exports of our TypeScript ones.
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url, { data: { include: ["pg"] } });
  const processor = new tracing.BatchSpanProcessor(
    new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }),
  );
  const fastifyOtel = new FastifyOtelInstrumentation({
    // Probes and scrapes every few seconds would bury the requests people make.
    ignorePaths: ({ url }) => url.startsWith("/health/") || url === "/metrics",
  });
  const instrumentations = [
    new HttpInstrumentation(),
    new PgInstrumentation({ requireParentSpan: true }),
    fastifyOtel,
  ];
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors: [processor],
    instrumentations,
  });
  sdk.start();
  started = {
    options,
    async instrument(app) {
      await app.register(fastifyOtel.plugin());
    },
    flush: () => processor.forceFlush(),
    async stop() {
      await sdk.shutdown();
      for (const instrumentation of instrumentations) instrumentation.disable();
      trace.disable();
      context.disable();
      propagation.disable();
      started = null;
    },
  };
  return started;
}
