/**
 * Resumable (tus) video uploads in API tests: start one, send its bytes (all at once, or a stream that may
 * fail half-way), or both; and a video to send.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import type { ApiClient } from "./http-client.ts";

/** The tus protocol's version header. */
export const TUS = { "tus-resumable": "1.0.0" };

/** Where uploads start: a project's id (its members' uploads), or the path of another upload route. */
const uploadPath = (target: string) => (target.startsWith("/") ? target : `/api/projects/${target}/videos`);

/**
 * Starts a tus upload of `length` bytes into `target` (a project's id, or an upload route's path) with any
 * further metadata; returns its URL path (or the refusal).
 */
export async function createUpload(
  client: ApiClient,
  target: string,
  length: number,
  metadata: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const encoded = Object.entries({ filetype: "video/webm", ...metadata })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
  const response = await client.request("POST", uploadPath(target), undefined, {
    ...TUS,
    "upload-length": String(length),
    "upload-metadata": encoded,
    ...headers,
  });
  const location = response.headers.get("location");
  return { ...response, location, upload: location?.split("/").at(-1) ?? "" };
}

/** The client's session cookie, for requests sent with fetch itself (raw bytes, a body that fails). */
const cookieOf = (client: ApiClient) =>
  [...(client as unknown as { cookies: Map<string, string> }).cookies]
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");

/**
 * A tus PATCH of raw bytes (or a stream) from `offset`, with any further headers (a guest's identity, a
 * widget page's Origin and upload token).
 */
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
      origin: client.baseUrl,
      cookie: cookieOf(client),
      ...headers,
      "upload-offset": String(offset),
      "content-type": "application/offset+octet-stream",
    },
    body: body instanceof Buffer ? new Uint8Array(body) : body,
    duplex: "half",
  } as RequestInit);
}

/** The whole video uploaded in one PATCH into `target` (as `createUpload`); returns the upload's id. */
export async function upload(
  client: ApiClient,
  target: string,
  bytes: Buffer,
  metadata: Record<string, string> = {},
): Promise<string> {
  const created = await createUpload(client, target, bytes.length, metadata);
  expect(created.status).toBe(201);
  expect((await patch(client, created.location!, 0, bytes)).status).toBe(204);
  return created.upload;
}

/** A WebM of `seconds` made by ffmpeg in `dir`: a test picture and a tone. */
export async function makeVideo(
  dir: string,
  name: string,
  seconds: number,
  size = "320x240",
): Promise<Buffer> {
  const file = path.join(dir, name);
  await promisify(execFile)("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc=size=${size}:rate=10`],
    ...["-f", "lavfi", "-i", "sine=frequency=440", "-t", String(seconds)],
    ...["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "100k", "-c:a", "libopus", file],
  ]);
  return readFile(file);
}
