import { z } from "zod";

/**
 * Response schemas (a route's declared `response`, issue #28): the answer `{ data, message? }` around a
 * route's data, and the answer that is only a message (a write that returns nothing else). Apart from
 * api.ts so the signed-out landing page, which reads api.ts, loads no zod.
 */
export const dataAnswer = <Data extends z.ZodType>(data: Data) =>
  z.strictObject({ data, message: z.string().optional() });
export const messageAnswer = z.strictObject({ message: z.string() });
