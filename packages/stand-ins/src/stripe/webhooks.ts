/**
 * Webhook delivery, as Stripe does it: each event POSTed as JSON with a `Stripe-Signature` header made
 * by the SDK's own helper, so the app verifies it exactly as it verifies Stripe's. Events are queued
 * after their transaction commits and sent only once the response of the call that caused them has
 * gone out (the app may re-read the objects at once). One chain per customer keeps their order; a
 * failed delivery (non-2xx or no answer) is retried after 0.2 s, 1 s and 3 s, then dropped with a
 * warning. Closing the app stops everything still waiting. Another embedded provider (modules/paypal-dev)
 * uses the same queue with its own signature headers and order key.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from "fastify";
import Stripe from "stripe";
import type { EventObject } from "./stripe-objects.ts";

const RETRY_DELAYS_MS = [200, 1000, 3000];
const ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookQueueOptions<E> {
  url: string;
  log: FastifyBaseLogger;
  /** Stripe's webhook secret, for the default signature. */
  secret?: string;
  /** The headers that sign one delivery of `payload`; by default a Stripe-Signature made with `secret`. */
  sign?: (payload: string, event: E) => Record<string, string> | Promise<Record<string, string>>;
  /** Events with the same key are delivered in order; by default the Stripe customer they concern. */
  orderKey?: (event: E) => string;
}

function stripeOrderKey(event: EventObject): string {
  const object = event.data.object as { id?: string; object?: string; customer?: unknown };
  return object.object === "customer" ? String(object.id) : String(object.customer ?? "");
}

export class WebhookQueue<E extends { id: string } = EventObject> {
  private readonly chains = new Map<string, Promise<void>>();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly stopped = new AbortController();

  constructor(private readonly options: WebhookQueueOptions<E>) {}

  /** Queues committed events; none is sent before `ready` settles (the response went out). */
  enqueue(events: E[], ready: Promise<void> = Promise.resolve()): void {
    for (const event of events) {
      if (this.stopped.signal.aborted) return;
      const key = this.options.orderKey
        ? this.options.orderKey(event)
        : stripeOrderKey(event as unknown as EventObject);
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

  private async sign(payload: string, event: E): Promise<Record<string, string>> {
    if (this.options.sign) return this.options.sign(payload, event);
    const secret = this.options.secret ?? "";
    return { "stripe-signature": await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret }) };
  }

  private async deliver(event: E): Promise<void> {
    const payload = JSON.stringify(event);
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (this.stopped.signal.aborted) return;
      if (attempt > 0 && !(await this.sleep(RETRY_DELAYS_MS[attempt - 1]!))) return;
      try {
        const signature = await this.sign(payload, event);
        const response = await fetch(this.options.url, {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8", ...signature },
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
      { event: event.id, type: (event as { type?: string }).type, url: this.options.url },
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

const queues = new WeakMap<object, Set<{ idle(): Promise<void> }>>();

/**
 * Called by each embedded provider's plugin: a queue serving the app whose HTTP server is `app.server`.
 * Deliveries already under way reach the app before it stops listening (a webhook handler calls the
 * provider back, which a closed server would refuse): closing waits for them a little, then drops the rest.
 */
export function registerWebhookQueue(
  app: FastifyInstance,
  queue: { idle(): Promise<void>; close(): void },
): void {
  const known = queues.get(app.server) ?? new Set();
  queues.set(app.server, known.add(queue));
  app.addHook("preClose", async () => {
    await Promise.race([queue.idle(), new Promise((resolve) => setTimeout(resolve, 5000))]);
    queue.close();
  });
}

/**
 * Resolves when the embedded providers of `app` (the app, or any instance they were registered in) have
 * no webhook left to deliver — for tests that assert on what the webhooks did.
 */
export async function paymentsDevIdle(app: FastifyInstance): Promise<void> {
  await Promise.all([...(queues.get(app.server) ?? [])].map((queue) => queue.idle()));
}
