/**
 * The embedded PayPal provider's persistence: each object is one `payment_provider_objects` row of type
 * `paypal_<kind>`, holding PayPal's JSON; `customer` names the object it belongs to (a plan's product, a
 * transaction's or an event's subscription) and `lookup_key` a PayPal-Request-Id already answered. A write
 * runs in one transaction that also stores the webhook events it causes, handed to the delivery queue
 * only once committed and once the response that caused them has gone out.
 */

import type { PaypalEvent } from "@redline/shared/paypal";
import { and, asc, eq, sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { Database } from "../port.ts";
import { paymentProviderObjects as objects } from "../store-schema.ts";
import { nextCreatedAt } from "../stripe/provider-store.ts";
import { replySent, type WebhookQueue } from "../stripe/webhooks.ts";
import { eventObject, notFound, type ProviderUrls } from "./paypal-objects.ts";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type PaypalKind = "product" | "plan" | "subscription" | "transaction" | "event";

const typeOf = (kind: PaypalKind) => `paypal_${kind}`;

export class PaypalStore {
  constructor(protected readonly db: Database | Transaction) {}

  /** The object, or null; `lock`: FOR UPDATE, inside a write. */
  async find<T>(kind: PaypalKind, id: string, lock = false): Promise<T | null> {
    const query = this.db
      .select({ data: objects.data })
      .from(objects)
      .where(and(eq(objects.id, id), eq(objects.type, typeOf(kind))));
    const [row] = await (lock ? query.for("update") : query);
    return (row?.data as T | undefined) ?? null;
  }

  /** The object, or PayPal's 404. */
  async get<T>(kind: PaypalKind, id: string, lock = false): Promise<T> {
    const found = await this.find<T>(kind, id, lock);
    if (!found) throw notFound();
    return found;
  }

  /** Objects of a kind, oldest first: those belonging to `owner`, or the one answering `requestKey`. */
  async list<T>(kind: PaypalKind, where: { owner?: string; requestKey?: string } = {}): Promise<T[]> {
    const rows = await this.db
      .select({ data: objects.data })
      .from(objects)
      .where(
        and(
          eq(objects.type, typeOf(kind)),
          where.owner === undefined ? undefined : eq(objects.customer, where.owner),
          where.requestKey === undefined ? undefined : eq(objects.lookupKey, where.requestKey),
        ),
      )
      .orderBy(asc(objects.createdAt), asc(objects.id));
    return rows.map((row) => row.data as T);
  }
}

/** A write: its own transaction, and the webhook events it emits. */
export class PaypalWrite extends PaypalStore {
  readonly events: PaypalEvent[] = [];

  constructor(
    readonly tx: Transaction,
    readonly urls: ProviderUrls,
  ) {
    super(tx);
  }

  /** Serialises writers of a key no row holds yet (a PayPal-Request-Id, a product id we were given). */
  async lockKey(key: string): Promise<void> {
    await this.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`paypal-dev:${key}`}))`);
  }

  async insert<T extends { id: string }>(
    kind: PaypalKind,
    object: T,
    options: { owner?: string; requestKey?: string } = {},
  ): Promise<T> {
    await this.tx.insert(objects).values({
      id: object.id,
      type: typeOf(kind),
      customer: options.owner ?? null,
      lookupKey: options.requestKey ?? null,
      data: object as unknown as Record<string, unknown>,
      createdAt: nextCreatedAt(),
    });
    return object;
  }

  async save<T extends { id: string }>(kind: PaypalKind, object: T): Promise<T> {
    await this.tx
      .update(objects)
      .set({ data: object as unknown as Record<string, unknown> })
      .where(and(eq(objects.id, object.id), eq(objects.type, typeOf(kind))));
    return object;
  }

  /** Stores an event about a subscription's `resource`, to be delivered after the commit. */
  async emit(
    type: string,
    resourceType: "subscription" | "sale",
    resource: object,
    subscriptionId: string,
  ): Promise<void> {
    const event = eventObject(this.urls, type, resourceType, resource as Record<string, unknown>);
    await this.insert("event", event, { owner: subscriptionId });
    this.events.push(event);
  }
}

export interface PaypalProvider {
  urls: ProviderUrls;
  read: PaypalStore;
  /** Runs a write in one transaction; its events are delivered once `reply` has been sent. */
  write<T>(reply: FastifyReply, write: (store: PaypalWrite) => Promise<T>): Promise<T>;
}

export function createPaypalProvider(
  db: Database,
  urls: ProviderUrls,
  webhooks: WebhookQueue<PaypalEvent>,
): PaypalProvider {
  return {
    urls,
    read: new PaypalStore(db),
    async write(reply, write) {
      let events: PaypalEvent[] = [];
      const result = await db.transaction(async (tx) => {
        const store = new PaypalWrite(tx, urls);
        const value = await write(store);
        events = store.events;
        return value;
      });
      webhooks.enqueue(events, replySent(reply));
      return result;
    },
  };
}
