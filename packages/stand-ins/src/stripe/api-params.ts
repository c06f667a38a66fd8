/**
 * The provider's side of the API contract: a small provider handle for the route files, and the zod
 * pieces Stripe's parameters are made of (all values arrive as strings from the urlencoded form).
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Database } from "../port.ts";
import { queryParams } from "./form-params.ts";
import { ProviderStore, type ProviderTransaction, transact } from "./provider-store.ts";
import { fromZod } from "./stripe-errors.ts";
import { replySent, type WebhookQueue } from "./webhooks.ts";

export interface Provider {
  /** The app's public URL: checkout pages and hosted invoices live under it. */
  appUrl: string;
  read: ProviderStore;
  /** Runs a write in one transaction; its events are delivered once `reply` has been sent. */
  write<T>(reply: FastifyReply, write: (store: ProviderTransaction) => Promise<T>): Promise<T>;
}

export function createProvider(db: Database, appUrl: string, webhooks: WebhookQueue): Provider {
  return {
    appUrl,
    read: new ProviderStore(db),
    async write(reply, write) {
      const { result, events } = await transact(db, write);
      webhooks.enqueue(events, replySent(reply));
      return result;
    },
  };
}

/**
 * Parses Stripe params with `schema`, failing with Stripe's wording. Parameters the provider does not
 * implement are ignored, with a warning in the log (Stripe would honour them: worth knowing).
 */
export function parseParams<T extends z.ZodType>(
  schema: T,
  params: unknown,
  log?: FastifyBaseLogger,
): z.output<T> {
  if (log && schema instanceof z.ZodObject && params && typeof params === "object") {
    const ignored = Object.keys(params).filter((key) => !(key in schema.shape));
    if (ignored.length > 0) log.warn({ ignored }, "embedded payment provider: parameters ignored");
  }
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw fromZod(parsed.error, params);
  return parsed.data;
}

export const id = z.string().min(1).max(255);
export const text = (max: number) => z.string().max(max);
export const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,12}$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
export const boolean = z.enum(["true", "false"]).transform((value) => value === "true");
export const expandParam = z.array(z.string().max(200)).max(20).optional();
/** Metadata: 50 keys of ≤ 40 characters, values ≤ 500; "" as a value removes that key. */
export const metadataParam = z
  .union([z.record(z.string().min(1).max(40), z.string().max(500)), z.literal("")])
  .refine((value) => value === "" || Object.keys(value).length <= 50, "at most 50 keys")
  .optional();
export const listParams = {
  limit: integer(1, 100).optional(),
  starting_after: id.optional(),
  expand: expandParam,
};

/** Query-string and body parameters of a request, as one object (Stripe accepts either). */
export function paramsOf(request: FastifyRequest): Record<string, unknown> {
  const body =
    request.body && typeof request.body === "object" ? (request.body as Record<string, unknown>) : {};
  return { ...queryParams(request.url), ...body };
}
