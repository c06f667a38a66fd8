/**
 * The embedded product-analytics stand-in (development and tests only; POSTHOG_API_KEY without
 * POSTHOG_HOST): PostHog's capture API as it documents it — `POST /batch/` (`{ api_key, batch: [...] }`),
 * `POST /capture/` and `POST /i/v0/e/` (one event, `{ api_key, event, distinct_id, properties,
 * timestamp, uuid }`), gzip bodies (`Content-Encoding: gzip`, as posthog-node sends them) or plain JSON.
 * A wrong project key is answered 401 as PostHog does. Events are kept in memory, deduplicated by
 * `uuid` as PostHog does, and listed at the prefix (a page) and at `{prefix}/api/events` (JSON, for tests).
 */
import { PassThrough } from "node:stream";
import { createGunzip } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";

export interface PosthogDevOptions {
  /** The one project key this stand-in accepts (the app's POSTHOG_API_KEY). */
  apiKey: string;
}

const event = z.object({
  event: z.string().min(1).max(200),
  distinct_id: z.union([z.string(), z.number()]).transform(String),
  properties: z.record(z.string(), z.unknown()).default({}),
  timestamp: z.string().max(64).optional(),
  uuid: z.string().max(64).optional(),
  type: z.string().max(40).optional(),
});
const batchBody = z.object({ api_key: z.string().max(200), batch: z.array(event).max(1000) });
const singleBody = event.extend({ api_key: z.string().max(200) });

export interface CapturedEvent {
  uuid: string | null;
  event: string;
  distinctId: string;
  properties: Record<string, unknown>;
  timestamp: string | null;
  receivedAt: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function posthogDevRoutes(app: FastifyInstance, options: PosthogDevOptions) {
  const captured: CapturedEvent[] = [];
  const seen = new Set<string>();

  // posthog-node gzips its batches: inflate before Fastify's JSON parser reads the body.
  app.addHook("preParsing", async (request, _reply, payload) => {
    if (request.headers["content-encoding"] !== "gzip") return payload;
    const inflated = payload.pipe(createGunzip()).pipe(new PassThrough()) as PassThrough & {
      receivedEncodedLength?: number;
    };
    inflated.receivedEncodedLength = Number(request.headers["content-length"] ?? 0) || undefined;
    delete request.headers["content-length"];
    return inflated;
  });

  function keep(events: z.infer<typeof event>[]) {
    for (const item of events) {
      if (item.uuid && seen.has(item.uuid)) continue;
      if (item.uuid) seen.add(item.uuid);
      captured.push({
        uuid: item.uuid ?? null,
        event: item.event,
        distinctId: item.distinct_id,
        properties: item.properties,
        timestamp: item.timestamp ?? null,
        receivedAt: new Date().toISOString(),
      });
    }
    if (captured.length > 10_000) captured.splice(0, captured.length - 10_000);
  }

  const invalid = {
    type: "authentication_error",
    code: "invalid_api_key",
    detail: "Project API key invalid.",
  };

  app.post(
    "/batch/",
    route({ summary: "Capture a batch of events (embedded PostHog)", action: "public", body: batchBody }),
    async (request, reply) => {
      const parsed = batchBody.safeParse(request.body);
      if (!parsed.success)
        return reply.status(400).send({ type: "validation_error", detail: "Malformed batch." });
      if (parsed.data.api_key !== options.apiKey) return reply.status(401).send(invalid);
      keep(parsed.data.batch);
      return { status: 1 };
    },
  );
  for (const path of ["/capture/", "/i/v0/e/"])
    app.post(
      path,
      route({ summary: "Capture one event (embedded PostHog)", action: "public", body: singleBody }),
      async (request, reply) => {
        const parsed = singleBody.safeParse(request.body);
        if (!parsed.success)
          return reply.status(400).send({ type: "validation_error", detail: "Malformed event." });
        if (parsed.data.api_key !== options.apiKey) return reply.status(401).send(invalid);
        keep([parsed.data]);
        return { status: 1 };
      },
    );

  app.get(
    "/api/events",
    route({ summary: "The events received, newest last (embedded PostHog)", action: "public" }),
    async () => ({ results: captured }),
  );

  app.get(
    "/",
    route({ summary: "The events received (embedded PostHog)", action: "public" }),
    async (_r, reply) => {
      const rows = captured
        .slice(-200)
        .reverse()
        .map(
          (e) =>
            `<tr><td>${escapeHtml(e.receivedAt)}</td><td>${escapeHtml(e.event)}</td><td>${escapeHtml(e.distinctId)}</td><td><code>${escapeHtml(JSON.stringify(e.properties))}</code></td></tr>`,
        )
        .join("");
      reply.type("text/html").send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Embedded PostHog</title></head><body>
<h1>Embedded PostHog</h1><p>The analytics events this instance forwarded (newest first, at most 200 shown).</p>
${captured.length === 0 ? "<p>No events yet.</p>" : `<table><thead><tr><th>Received</th><th>Event</th><th>Distinct id</th><th>Properties</th></tr></thead><tbody>${rows}</tbody></table>`}
</body></html>`,
      );
    },
  );
}
