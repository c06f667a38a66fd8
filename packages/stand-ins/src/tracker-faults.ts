/**
 * A task-tracker stand-in's injected faults, for tests and for trying the app's retries by hand: the next
 * `times` API calls answer `status` (500, 429 with Retry-After) as the real service does when it is down
 * or rate-limits. Set through the stand-in's `POST …/_faults`.
 */
import type { FastifyReply } from "fastify";
import { z } from "zod";

export const faultBody = z.object({
  status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(429), z.literal(401)]),
  times: z.number().int().min(0).max(100).default(1),
});

export class Faults {
  private status = 0;
  private times = 0;
  set(status: number, times: number) {
    this.status = status;
    this.times = times;
  }
  /** Answers with the injected fault when one is due (true: answered). */
  answer(reply: FastifyReply, body: (status: number) => unknown): boolean {
    if (this.times <= 0) return false;
    this.times -= 1;
    if (this.status === 429) reply.header("retry-after", "1");
    reply.status(this.status).send(body(this.status));
    return true;
  }
}
