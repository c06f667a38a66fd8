/**
 * What a request asked for that code far from its handler must honour, without threading it through every
 * call: today, whether the browser asks not to be tracked (Global Privacy Control `Sec-GPC: 1` or Do Not
 * Track `DNT: 1`, SPEC §7 analytics). Held in the request's async context by @fastify/request-context (a
 * kept plugin that also keeps the context across body parsing), so a write anywhere under the request —
 * an operation, better-auth's hooks — can stamp the events it records (lib/ledger.ts).
 */
import { fastifyRequestContext, requestContext } from "@fastify/request-context";
import type { FastifyInstance, FastifyRequest } from "fastify";

declare module "@fastify/request-context" {
  interface RequestContextData {
    doNotTrack: boolean;
  }
}

/** Global Privacy Control or Do Not Track: the browser asks not to be followed. */
export function asksNotToBeTracked(request: Pick<FastifyRequest, "headers">): boolean {
  return request.headers["sec-gpc"] === "1" || request.headers.dnt === "1";
}

export async function installRequestScope(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRequestContext, {
    defaultStoreValues: (request) => ({ doNotTrack: asksNotToBeTracked(request) }),
  });
}

/** Whether the request being served (if any) asked not to be tracked. */
export function requestAsksNotToBeTracked(): boolean {
  return requestContext.get("doNotTrack") === true;
}
