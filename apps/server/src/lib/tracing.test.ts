import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../env.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { startTracing } from "./tracing.ts";

interface Export {
  path: string;
  contentType: string;
  body: { resourceSpans: ResourceSpans[] };
}
interface ResourceSpans {
  resource: { attributes: Attribute[] };
  scopeSpans: { spans: { name: string; attributes: Attribute[] }[] }[];
}
interface Attribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string };
}

/** A tiny OTLP/HTTP receiver: keeps what the exporter posts. */
async function otlpReceiver() {
  const received: Export[] = [];
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const server = createServer(async (request, response) => {
    const text = await read(request);
    received.push({
      path: request.url ?? "",
      contentType: request.headers["content-type"] ?? "",
      body: JSON.parse(text),
    });
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attribute = (attributes: Attribute[], key: string) => {
  const value = attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await otlpReceiver();
    t = await startTestApp({
      smtp: false,
      config: { tracing: { endpoint: receiver.url, serviceName: "redline-test" } },
    });
  });
  afterAll(async () => {
    await startTracing({ endpoint: receiver.url, serviceName: "redline-test" }).stop();
    await receiver.close();
  });

  it("exports a span for a request, named by its route, with the service's name", async () => {
    expect((await fetch(`${t.url}/api/projects/0f8fad5b-d9cb-469f-a165-70867728950e`)).status).toBe(401);
    await t.close(); // flushes the spans still buffered
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received.every((post) => post.path === "/v1/traces")).toBe(true);
    expect(receiver.received[0]!.contentType).toBe("application/json");
    const resources = receiver.received.flatMap((post) => post.body.resourceSpans);
    expect(resources.map((resource) => attribute(resource.resource.attributes, "service.name"))).toContain(
      "redline-test",
    );
    const spans = resources.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    const requestSpan = spans.find(
      (span) => attribute(span.attributes, "http.route") === "/api/projects/:projectId",
    );
    expect(requestSpan, JSON.stringify(spans.map((span) => span.name))).toBeDefined();
  });
});

describe("tracing settings", () => {
  it("are off by default and on with OTEL_EXPORTER_OTLP_ENDPOINT, which must be a URL", () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
      endpoint: "http://collector:4318",
      serviceName: "redline",
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector" })).toThrow(
      "OTEL_EXPORTER_OTLP_ENDPOINT",
    );
  });
});
