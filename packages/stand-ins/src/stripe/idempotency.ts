/**
 * Stripe's idempotent requests: a POST carrying an `Idempotency-Key` is answered once; the same key
 * again gets the first answer replayed (with `Idempotent-Replayed: true`), and while the first is still
 * running a twin gets 409 `idempotency_key_in_use`, which the SDK retries. Keys live beside the other
 * objects (type `idempotency_key`); 5xx answers are not kept, so a retry runs again.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Database } from "../port.ts";
import { paymentProviderObjects } from "../store-schema.ts";
import { StripeApiError } from "./stripe-errors.ts";

const TYPE = "idempotency_key";
const claims = new WeakMap<object, string>();

export function installIdempotency(api: FastifyInstance, db: Database) {
  api.addHook("preHandler", async (request, reply) => {
    const key = request.headers["idempotency-key"];
    if (request.method !== "POST" || typeof key !== "string" || key === "") return;
    const id = `idem_${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;
    const claimed = await db
      .insert(paymentProviderObjects)
      .values({ id, type: TYPE, data: { state: "running" } })
      .onConflictDoNothing()
      .returning({ id: paymentProviderObjects.id });
    if (claimed.length > 0) {
      claims.set(request, id);
      return;
    }
    const [stored] = await db
      .select()
      .from(paymentProviderObjects)
      .where(and(eq(paymentProviderObjects.id, id), eq(paymentProviderObjects.type, TYPE)));
    const data = stored?.data as { state: string; status?: number; body?: string } | undefined;
    if (data?.state !== "done")
      throw new StripeApiError(
        409,
        "There is currently another in-progress request using this Stripe token (probably the same request). Try again later.",
        { code: "idempotency_key_in_use", type: "idempotency_error" },
      );
    return reply
      .status(data.status!)
      .header("content-type", "application/json")
      .header("idempotent-replayed", "true")
      .send(data.body);
  });

  api.addHook("onSend", async (request, reply, payload) => {
    const id = claims.get(request);
    if (!id) return payload;
    claims.delete(request);
    if (reply.statusCode >= 500)
      await db.delete(paymentProviderObjects).where(eq(paymentProviderObjects.id, id));
    else
      await db
        .update(paymentProviderObjects)
        .set({ data: { state: "done", status: reply.statusCode, body: String(payload) } })
        .where(eq(paymentProviderObjects.id, id));
    return payload;
  });
}
