/**
 * The API's OpenAPI 3.1 document, served at GET /api/openapi.json.
 *
 * The routes are the ones Fastify actually registered, each with the declaration it was registered with
 * (lib/routes.ts: summary, body and query schemas, upload, policy action), collected by app.ts's
 * onRoute hook; the zod schemas are converted by zod's own `toJSONSchema`. openapi.test.ts fails when a
 * registered /api route carries no declaration, so the document cannot drift from the server.
 */

import { toJSONSchema, type ZodType, z } from "zod";
import { DEFAULT_ACCEPTS } from "./lib/principal.ts";
import type { RegisteredRoute } from "./lib/routes.ts";

/** Routes served by the auth library under one wildcard; documented as a group. */
const AUTH_PREFIX = "/api/auth/";

const jsonSchema = (schema: ZodType, io: "input" | "output" = "input") =>
  toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

/** "/api/pages/:pageId" → "/api/pages/{pageId}" and its path parameters. */
function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path, params };
}

/** The document's own answer schema: an OpenAPI 3.1 document (its operations described by the rest of it). */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ summary: z.string() }))),
});

export function openApiDocument(routes: RegisteredRoute[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, url, doc } of routes) {
    if (!url.startsWith("/api/") || url.startsWith(AUTH_PREFIX)) continue;
    const { path, params } = openApiPath(url);
    const parameters: unknown[] = params.map((name) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (doc?.query) {
      const schema = jsonSchema(doc.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        parameters.push({
          name,
          in: "query",
          required: schema.required?.includes(name) ?? false,
          schema: property,
        });
    }
    const operation: Record<string, unknown> = {
      summary: doc?.summary ?? `${method} ${url}`,
      tags: [url.split("/")[2]],
      ...(parameters.length ? { parameters } : {}),
      ...(doc?.action === "public"
        ? { security: [] }
        : doc && !(doc.accepts ?? DEFAULT_ACCEPTS).includes("token")
          ? { security: [{ session: [] }] }
          : {}),
      ...(doc ? { "x-policy-action": doc.action } : {}),
      responses: {
        "200":
          doc?.response === "not-json"
            ? {
                description:
                  "Success: not a JSON document (a file, a redirect, no content, or a protocol's answer)",
              }
            : doc?.response
              ? {
                  description: "Success",
                  content: { "application/json": { schema: jsonSchema(doc.response, "output") } },
                }
              : { description: "Success: `{ data }`" },
        "400": { description: "Invalid input: `{ error, code, message }`; nothing changed" },
        "401": { description: "Not signed in" },
        "403": { description: "Signed in, but not allowed" },
        "404": { description: "Not found, or not visible to this user" },
      },
    };
    if (doc?.body)
      operation.requestBody = {
        required: false,
        content: { "application/json": { schema: jsonSchema(doc.body) } },
      };
    if (doc?.upload)
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", properties: { file: { type: "string", format: "binary" } } },
          },
        },
      };
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = operation;
  }
  paths[`${AUTH_PREFIX}{action}`] = {
    post: {
      summary: "Sign up, sign in, sign out, verify e-mail, reset password (better-auth)",
      tags: ["auth"],
      security: [],
      parameters: [{ name: "action", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "See https://www.better-auth.com/docs/concepts/api" } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Redline API",
      version: info.version,
      description:
        "Call it signed in (the session cookie; every state-changing call must then come from the app's " +
        "own origin) or with an API token from Account Settings (`Authorization: Bearer rl_…`; a read " +
        "token may only GET; billing, account and token management take the session only). Errors are " +
        "`{ error, code, message }` with the matching status.",
      license: { name: "AGPL-3.0-only", identifier: "AGPL-3.0-only" },
    },
    servers: [{ url: info.serverUrl }],
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "better-auth.session_token" },
        bearer: { type: "http", scheme: "bearer", description: "An API token (rl_…) from Account Settings" },
      },
    },
    security: [{ session: [] }, { bearer: [] }],
    paths,
  };
}
