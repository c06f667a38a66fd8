/**
 * The embedded provider's persistence: every object is one `payment_provider_objects` row holding its
 * Stripe JSON. Writes run in one transaction that also stores the events they cause (type "event"),
 * so an event exists exactly when its change does; the events are handed to the webhook queue only
 * after the commit. Rows that must not change under a concurrent write are read with FOR UPDATE.
 */
import { and, desc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../port.ts";
import { paymentProviderObjects as objects } from "../store-schema.ts";
import { noSuch } from "./stripe-errors.ts";
import {
  API_VERSION,
  type ApiList,
  currencyOptionsOf,
  type EventObject,
  listOf,
  newId,
  nowSeconds,
  type PriceObject,
  type StoredObject,
} from "./stripe-objects.ts";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

let lastCreatedAt = 0;
/** Creation times strictly increasing within the process, so lists and events keep their order. */
export function nextCreatedAt(): Date {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return new Date(lastCreatedAt);
}

function eventObject(
  type: string,
  object: Record<string, unknown>,
  previousAttributes?: Record<string, unknown>,
): EventObject {
  return {
    id: newId("evt"),
    object: "event",
    api_version: API_VERSION,
    created: nowSeconds(),
    data: { object, ...(previousAttributes && { previous_attributes: present(previousAttributes) }) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/**
 * The object as the API shows it: without the provider's own "_" notes, at any depth (a price inside a
 * subscription item keeps its currency options to itself too); metadata is the app's and kept whole.
 */
export function present<T extends object>(object: T): T {
  return hideNotes(object) as T;
}

function hideNotes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideNotes);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith("_"))
      .map(([key, child]) => [key, key === "metadata" ? child : hideNotes(child)]),
  );
}

/** The customer an object belongs to (webhooks are delivered in order per customer). */
export function customerOf(object: { id: string; object: string; customer?: unknown }): string | null {
  if (object.object === "customer") return object.id;
  return typeof object.customer === "string" ? object.customer : null;
}

/** Top-level fields of `before` that differ in `after`: an `*.updated` event's previous_attributes. */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  for (const [key, value] of Object.entries(after)) {
    if (key.startsWith("_")) continue;
    if (JSON.stringify(old[key]) !== JSON.stringify(value)) previous[key] = old[key] ?? null;
  }
  return previous;
}

/** A condition on a field inside the stored JSON: `data #>> path` is one of `values`. */
export function jsonFieldIn(path: string[], values: string[]): SQL {
  return inArray(sql`${objects.data} #>> ${`{${path.join(",")}}`}::text[]`, values);
}

export interface ListOptions {
  customer?: string;
  lookupKeys?: string[];
  where?: SQL;
  limit: number;
  startingAfter?: string;
  url: string;
}

export class ProviderStore {
  constructor(readonly db: Database | Transaction) {}

  async find<T extends StoredObject>(id: string, type?: string): Promise<T | null> {
    const [row] = await this.db
      .select({ data: objects.data })
      .from(objects)
      .where(type ? and(eq(objects.id, id), eq(objects.type, type)) : eq(objects.id, id));
    return (row?.data as T | undefined) ?? null;
  }

  /** The object, or Stripe's "No such …" (404; 400 naming `param` when it came as a parameter). */
  async get<T extends StoredObject>(type: string, id: string, param?: string): Promise<T> {
    const found = await this.find<T>(id, type);
    if (!found) throw noSuch(id, param);
    return found;
  }

  async list<T extends StoredObject>(type: string, options: ListOptions): Promise<ApiList<T>> {
    const conditions: SQL[] = [eq(objects.type, type)];
    if (options.customer) conditions.push(eq(objects.customer, options.customer));
    if (options.lookupKeys) conditions.push(inArray(objects.lookupKey, options.lookupKeys));
    if (options.where) conditions.push(options.where);
    if (options.startingAfter) {
      const cursor = this.db
        .select({ createdAt: objects.createdAt })
        .from(objects)
        .where(eq(objects.id, options.startingAfter));
      conditions.push(lt(objects.createdAt, sql`(${cursor})`));
    }
    const rows = await this.db
      .select({ data: objects.data })
      .from(objects)
      .where(and(...conditions))
      .orderBy(desc(objects.createdAt), desc(objects.id))
      .limit(options.limit + 1);
    const data = rows.slice(0, options.limit).map((row) => present(row.data as T));
    return listOf(data, options.url, rows.length > options.limit);
  }
}

/** A write: its own transaction, and the events it emits. */
export class ProviderTransaction extends ProviderStore {
  readonly events: EventObject[] = [];

  constructor(readonly tx: Transaction) {
    super(tx);
  }

  async lock<T extends StoredObject>(type: string, id: string, param?: string): Promise<T> {
    const [row] = await this.tx
      .select({ data: objects.data })
      .from(objects)
      .where(and(eq(objects.id, id), eq(objects.type, type)))
      .for("update");
    if (!row) throw noSuch(id, param);
    return row.data as T;
  }

  /** Serialises writers of one key that no row holds yet (a price's lookup key). */
  async lockKey(key: string): Promise<void> {
    await this.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`payments-dev:${key}`}))`);
  }

  async insert<T extends StoredObject>(object: T, options: { lookupKey?: string | null } = {}): Promise<T> {
    await this.tx.insert(objects).values({
      id: object.id,
      type: object.object,
      customer: customerOf(object),
      lookupKey: options.lookupKey ?? null,
      data: object,
      createdAt: nextCreatedAt(),
    });
    return object;
  }

  async save<T extends StoredObject>(object: T): Promise<T> {
    await this.tx.update(objects).set({ data: object }).where(eq(objects.id, object.id));
    return object;
  }

  /** Stores an event about `object` as it is now (and, for updates, what changed). */
  async emit(
    type: string,
    object: StoredObject,
    previousAttributes?: Record<string, unknown>,
  ): Promise<void> {
    const event = eventObject(type, present(object), previousAttributes);
    await this.tx.insert(objects).values({
      id: event.id,
      type: "event",
      customer: customerOf(object),
      data: event as unknown as StoredObject,
      createdAt: nextCreatedAt(),
    });
    this.events.push(event);
  }
}

/** Runs `write` in one transaction; returns its result and the events it emitted (committed). */
export async function transact<T>(
  db: Database,
  write: (store: ProviderTransaction) => Promise<T>,
): Promise<{ result: T; events: EventObject[] }> {
  let events: EventObject[] = [];
  const result = await db.transaction(async (tx) => {
    const store = new ProviderTransaction(tx);
    const value = await write(store);
    events = store.events;
    return value;
  });
  return { result, events };
}

/**
 * Replaces ids by the objects they name along each `expand` path (`latest_invoice`,
 * `invoice_settings.default_payment_method`, `data.latest_invoice` in lists), as Stripe's `expand[]`;
 * a path ending in a price's `currency_options` includes them (a field Stripe sends only when asked).
 */
export async function expand<T>(store: ProviderStore, value: T, paths: readonly string[] = []): Promise<T> {
  let result: unknown = value;
  for (const path of paths) result = await expandPath(store, result, path.split("."));
  return result as T;
}

async function expandPath(store: ProviderStore, value: unknown, path: string[]): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => expandPath(store, item, path)));
  const [head, ...rest] = path;
  if (head === undefined || value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (head === "currency_options" && rest.length === 0 && record.object === "price") {
    const price = await store.find<PriceObject>(String(record.id), "price");
    return price ? { ...record, currency_options: currencyOptionsOf(price) } : value;
  }
  if (!(head in record)) return value;
  let child = record[head];
  if (typeof child === "string" && /^[a-z]+_/.test(child)) {
    const loaded = await store.find(child);
    if (loaded && loaded.object !== "event") child = present(loaded);
  }
  return { ...record, [head]: await expandPath(store, child, rest) };
}
