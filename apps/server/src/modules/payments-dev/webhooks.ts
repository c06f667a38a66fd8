/**
 * Webhook delivery, as Stripe does it: each event POSTed as JSON with a `Stripe-Signature` header made
 * by the SDK's own helper, so the app verifies it exactly as it verifies Stripe's. Events are queued
 * after their transaction commits and sent only once the response of the call that caused them has
 * gone out (the app may re-read the objects at once). One chain per customer keeps their order; a
 * failed delivery (non-2xx or no answer) is retried after 0.2 s, 1 s and 3 s, then dropped with a
 * warning. Closing the app stops everything still waiting.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from "fastify";
import Stripe from "stripe";
import type { EventObject } from "./stripe-objects.ts";

const RETRY_DELAYS_MS = [200, 1000, 3000];
const ATTEMPT_TIMEOUT_MS = 10_000;

export class WebhookQueue {
  private readonly chains = new Map<string, Promise<void>>();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly stopped = new AbortController();

  constructor(private readonly options: { url: string; secret: string; log: FastifyBaseLogger }) {}

  /** Queues committed events; none is sent before `ready` settles (the response went out). */
  enqueue(events: EventObject[], ready: Promise<void> = Promise.resolve()): void {
    for (const event of events) {
      if (this.stopped.signal.aborted) return;
      const object = event.data.object as { id?: string; object?: string; customer?: unknown };
      const key = object.object === "customer" ? String(object.id) : String(object.customer ?? "");
      const previous = this.chains.get(key) ?? Promise.resolve();
      this.pending++;
      const next = previous.then(() => ready).then(() => this.deliver(event));
      this.chains.set(key, next);
      void next.finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
        if (--this.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    }
  }

  /** Resolves once every queued event was delivered or given up on. */
  idle(): Promise<void> {
    if (this.pending === 0 || this.stopped.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.stopped.abort();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async deliver(event: EventObject): Promise<void> {
    const payload = JSON.stringify(event);
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (this.stopped.signal.aborted) return;
      if (attempt > 0 && !(await this.sleep(RETRY_DELAYS_MS[attempt - 1]!))) return;
      try {
        const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
          payload,
          secret: this.options.secret,
        });
        const response = await fetch(this.options.url, {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
          body: payload,
          signal: AbortSignal.any([this.stopped.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
        });
        await response.body?.cancel();
        if (response.ok) return;
        this.options.log.debug({ event: event.id, status: response.status }, "webhook refused, will retry");
      } catch (error) {
        if (this.stopped.signal.aborted) return;
        this.options.log.debug({ event: event.id, err: error }, "webhook not delivered, will retry");
      }
    }
    this.options.log.warn(
      { event: event.id, type: event.type, url: this.options.url },
      "embedded payment provider: webhook not delivered, given up",
    );
  }

  /** false when the queue was closed while waiting. */
  private sleep(ms: number): Promise<boolean> {
    const { signal } = this.stopped;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", stop);
        resolve(true);
      }, ms);
      const stop = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener("abort", stop, { once: true });
    });
  }
}

/** Settles when the reply has been sent (or its connection closed). */
export function replySent(reply: FastifyReply): Promise<void> {
  const raw = reply.raw;
  if (raw.writableFinished || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => raw.once("close", () => resolve()));
}

const queues = new WeakMap<object, WebhookQueue>();

/** Called by the plugin: the queue serving the app whose HTTP server is `app.server`. */
export function registerWebhookQueue(app: FastifyInstance, queue: WebhookQueue): void {
  queues.set(app.server, queue);
}

/**
 * Resolves when the embedded provider of `app` (the app, or any instance it was registered in) has no
 * webhook left to deliver — for tests that assert on what the webhooks did.
 */
export function paymentsDevIdle(app: FastifyInstance): Promise<void> {
  return queues.get(app.server)?.idle() ?? Promise.resolve();
}
