/**
 * A stand-in route's summary, kept in the route's config like the app's own declarations (the host's
 * route registry lists it), with the action always "public": the stand-in's own checks (API key, OAuth
 * tokens, Origin) guard it. Stand-in routes live outside /api, so the product's OpenAPI document, which
 * reads /api routes only, never shows them — they are not the product's API.
 */
import type { ZodType } from "zod";

export interface StandInRouteDoc {
  summary: string;
  action: "public";
  /** The JSON body the handler parses (documentation for a reader; validation is in the handler). */
  body?: ZodType;
}

export function route<Options extends object = object>(
  doc: StandInRouteDoc,
  options?: Options,
): Options & { config: { doc: StandInRouteDoc } } {
  return { ...(options as Options), config: { doc } };
}
