import { z } from "zod";
import type { Limits, ProductLimits } from "./limits.ts";

/** The limits' response schemas, apart from limits.ts so the landing page (which reads it) loads no zod. */
export const productLimitsSchema = z.strictObject({
  projects: z.number().int(),
  pages: z.number().int(),
}) satisfies z.ZodType<ProductLimits>;
export const limitsSchema = z.strictObject({
  web: productLimitsSchema,
  browse: productLimitsSchema,
}) satisfies z.ZodType<Limits>;
