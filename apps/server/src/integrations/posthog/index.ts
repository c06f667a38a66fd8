/**
 * Product analytics forwarding (SPEC §7, optional): PostHog's capture API through its kept SDK
 * (posthog-node), at the configured host — PostHog's cloud, a self-hosted PostHog, or the embedded stand-in
 * (packages/stand-ins/src/posthog). Each event is sent at once (`captureImmediate`) with its own uuid, so a
 * job that sends it again after a failure is counted once; the SDK's own retries are off: the job queue
 * retries (modules/analytics/analytics.forward.ts).
 */
import { createHash } from "node:crypto";
import { PostHog } from "posthog-node";
import type { ProductAnalyticsConfig } from "../../env.ts";

export interface ForwardedEvent {
  /** Our row's id: the event's uuid is derived from it. */
  id: string;
  name: string;
  /** The person, or null: an anonymous event (no person profile is made). */
  userId: string | null;
  properties: Record<string, unknown>;
  createdAt: Date;
}

export interface ProductAnalytics {
  send(event: ForwardedEvent): Promise<void>;
  close(): Promise<void>;
}

/** A stable UUID (version 4 layout) per event id: PostHog deduplicates on it. */
export function eventUuid(id: string): string {
  const hex = createHash("sha256").update(`redline-analytics:${id}`).digest("hex");
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function createProductAnalytics(config: ProductAnalyticsConfig): ProductAnalytics {
  const client = new PostHog(config.apiKey, {
    host: config.host,
    flushAt: 1,
    flushInterval: 0,
    fetchRetryCount: 0,
    requestTimeout: 10_000,
    disableGeoip: true,
  });
  let failure: unknown = null;
  client.on("error", (error) => {
    failure = error;
  });
  return {
    async send(event) {
      failure = null;
      await client.captureImmediate({
        uuid: eventUuid(event.id),
        distinctId: event.userId ?? `anonymous-${event.id}`,
        event: event.name,
        properties: {
          ...event.properties,
          ...(event.userId === null && { $process_person_profile: false }),
        },
        timestamp: event.createdAt,
      });
      if (failure) throw failure;
    },
    close: () => client.shutdown(),
  };
}
