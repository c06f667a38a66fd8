import { z } from "zod";
import type { HealthResponse, MailboxMessage, PublicConfig } from "./api.ts";
import { SHIPPED_FEATURES, type ShippedFeatures } from "./plans.ts";

/** The small contracts' response schemas, apart from api.ts so the landing page (which reads it) loads no zod. */
export const healthResponseSchema = z.strictObject({
  status: z.literal("ok"),
  database: z.enum(["pglite", "postgres"]),
}) satisfies z.ZodType<HealthResponse>;

export const publicConfigSchema = z.strictObject({
  googleSignIn: z.boolean(),
  mailbox: z.boolean(),
  products: z.strictObject({
    browseHostPrefix: z.string(),
    webUrl: z.string(),
    browseUrl: z.string().nullable(),
  }),
  docsUrl: z.string().nullable().optional(),
  features: z.strictObject(
    Object.fromEntries(Object.keys(SHIPPED_FEATURES).map((feature) => [feature, z.boolean()])) as Record<
      keyof ShippedFeatures,
      z.ZodBoolean
    >,
  ),
}) satisfies z.ZodType<PublicConfig>;

export const mailboxMessageSchema = z.strictObject({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<MailboxMessage>;
