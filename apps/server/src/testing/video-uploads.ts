/**
 * Resumable (tus) video uploads in API tests: start one, send its bytes (all at once, or a stream that may
 * fail half-way), or both.
 */
import { expect } from "vitest";
import type { ApiClient } from "./http-client.ts";

/** The tus protocol's version header. */
export const TUS = { "tus-resumable": "1.0.0" };

/** Starts a tus upload of `length` bytes; returns its URL path (or the refusal). */
export async function createUpload(client: ApiClient, projectId: string, length: number) {
  const response = await client.request("POST", `/api/projects/${projectId}/videos`, undefined, {
    ...TUS,
    "upload-length": String(length),
    "upload-metadata": `filetype ${Buffer.from("video/webm").toString("base64")}`,
  });
  const location = response.headers.get("location");
  return { ...response, location, upload: location?.split("/").at(-1) ?? "" };
}

/** The client's session cookie, for requests sent with fetch itself (raw bytes, a body that fails). */
const cookieOf = (client: ApiClient) =>
  [...(client as unknown as { cookies: Map<string, string> }).cookies]
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");

/** A tus PATCH of raw bytes (or a stream) from `offset`, with any further headers (a guest's identity). */
export function patch(
  client: ApiClient,
  location: string,
  offset: number,
  body: Buffer | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
) {
  return fetch(client.baseUrl + location, {
    method: "PATCH",
    headers: {
      ...TUS,
      ...headers,
      origin: client.baseUrl,
      cookie: cookieOf(client),
      "upload-offset": String(offset),
      "content-type": "application/offset+octet-stream",
    },
    body: body instanceof Buffer ? new Uint8Array(body) : body,
    duplex: "half",
  } as RequestInit);
}

/** The whole video uploaded in one PATCH; returns the upload's id. */
export async function upload(client: ApiClient, projectId: string, bytes: Buffer): Promise<string> {
  const created = await createUpload(client, projectId, bytes.length);
  expect(created.status).toBe(201);
  expect((await patch(client, created.location!, 0, bytes)).status).toBe(204);
  return created.upload;
}
