/**
 * SSRF guard, part 2: every byte the capture browser receives is fetched here, by Node, never by
 * Chromium's own network stack (the browser context routes every request to `fetchResource`).
 *
 * The guarded undici Agent resolves the hostname itself in `connect.lookup` and refuses the
 * connection when any resolved address is private, so the address that is checked is the address
 * that is dialled: a DNS answer that changes between a pre-check and the connection (rebinding)
 * cannot slip through. IP-literal hosts never reach `lookup`, so they are checked before the request.
 * Redirects are not followed here: the browser gets the 3xx and asks again, and that request is
 * routed and checked like any other. `fetchFollowingRedirects` (SingleFile's own downloads) follows
 * them by hand, re-checking every hop.
 */
import { isIP, type LookupFunction } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";
import type { Agent } from "undici";
import { hostOf, isPrivateAddress, parseHttpUrl, type Resolver, systemResolver } from "./addresses.ts";
import { CaptureError } from "./errors.ts";

export interface NetworkPolicy {
  allowPrivate: boolean;
  resolve: Resolver;
  isBlocked: (ip: string) => boolean;
}

export interface FetchedResource {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | null;
  maxBytes: number;
  signal?: AbortSignal;
}

/** Headers that describe one hop's connection or an encoding we undo, never forwarded. */
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "content-encoding",
  "accept-encoding",
  "proxy-connection",
  "te",
  "trailer",
]);

type Undici = typeof import("undici");
let undici: Promise<Undici> | undefined;

/**
 * undici, loaded on first use: requiring it takes ~0.1 s of a cold start, so a capturer starts this
 * while Chromium launches (its tab opens meanwhile) rather than before.
 */
export function loadUndici(): Promise<Undici> {
  undici ??= import("undici");
  return undici;
}

export class Fetcher {
  readonly policy: NetworkPolicy;
  private readonly agent: Promise<Agent>;

  constructor(policy: Partial<NetworkPolicy> & { allowPrivate: boolean }) {
    this.policy = {
      allowPrivate: policy.allowPrivate,
      resolve: policy.resolve ?? systemResolver,
      isBlocked: policy.isBlocked ?? isPrivateAddress,
    };
    const lookup = this.guardedLookup();
    this.agent = loadUndici().then(
      ({ Agent }) =>
        new Agent({ connect: { lookup }, headersTimeout: 20_000, bodyTimeout: 20_000, connections: 8 }),
    );
  }

  private guardedLookup(): LookupFunction {
    const { resolve, isBlocked, allowPrivate } = this.policy;
    return (hostname, options, callback) => {
      resolve(hostname).then(
        (addresses) => {
          const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
          const usable = addresses.filter((a) => wanted === 0 || isIP(a) === wanted);
          const blocked = allowPrivate ? undefined : addresses.find(isBlocked);
          const first = usable[0];
          if (blocked !== undefined) {
            const error = new CaptureError("blocked-url", `${hostname} resolves to ${blocked}`);
            callback(error as NodeJS.ErrnoException, "", 0);
          } else if (first === undefined) {
            const error = Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
            callback(error, "", 0);
          } else if (options.all) {
            const all = usable.map((address) => ({ address, family: isIP(address) }));
            (callback as unknown as (e: null, a: typeof all) => void)(null, all);
          } else callback(null, first, isIP(first));
        },
        (error: NodeJS.ErrnoException) => callback(error, "", 0),
      );
    };
  }

  /** Throws CaptureError("blocked-url") for a non-http(s) URL or a private IP-literal host. */
  checkUrl(url: string): URL {
    const parsed = parseHttpUrl(url);
    const host = hostOf(parsed);
    if (!this.policy.allowPrivate && isIP(host) && this.policy.isBlocked(host))
      throw new CaptureError("blocked-url", `Private address refused: ${host}`, { url });
    return parsed;
  }

  /** One HTTP exchange, no redirect following; the body is decoded and capped at `maxBytes`. */
  async fetchResource(url: string, init: FetchInit): Promise<FetchedResource> {
    const parsed = this.checkUrl(url);
    parsed.hash = "";
    try {
      return await this.exchange(parsed, init);
    } catch (error) {
      // The connect-time refusal surfaces wrapped by undici; unwrap it and name the URL.
      const cause = error instanceof Error && error.cause instanceof CaptureError ? error.cause : error;
      if (cause instanceof CaptureError && cause.reason === "blocked-url")
        throw new CaptureError("blocked-url", cause.message, { url: parsed.href });
      throw error;
    }
  }

  private async exchange(parsed: URL, init: FetchInit): Promise<FetchedResource> {
    const url = parsed.href;
    const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
    for (const [name, value] of Object.entries(init.headers ?? {}))
      if (!name.startsWith(":") && !HOP_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.agent]);
    const response = await request(parsed, {
      method: (init.method ?? "GET") as "GET",
      headers,
      body: init.body && init.body.length > 0 ? init.body : null,
      dispatcher,
      signal: init.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > init.maxBytes) {
        response.body.destroy();
        throw new CaptureError("too-large", `${url} is larger than ${init.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
    return {
      url: parsed.href,
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body: decode(Buffer.concat(chunks), encoding),
    };
  }

  /**
   * Redirects followed by hand (at most 10), every hop re-checked; `url` of the result is the final
   * URL. 303, and 301/302 after a POST, continue as GET without a body, as browsers do.
   */
  async fetchFollowingRedirects(url: string, init: FetchInit): Promise<FetchedResource> {
    let current = url;
    let hopInit = init;
    for (let hop = 0; hop < 10; hop++) {
      const response = await this.fetchResource(current, hopInit);
      const location = response.headers.location;
      if (response.status < 300 || response.status > 399 || !location) return response;
      current = new URL(location, current).href;
      const method = (hopInit.method ?? "GET").toUpperCase();
      if (response.status === 303 || (method === "POST" && response.status <= 302))
        hopInit = { ...hopInit, method: "GET", body: null };
    }
    throw new CaptureError("load-failed", `Too many redirects from ${url}`);
  }

  /** Drops every connection, in-flight requests included (a timed-out job must not linger). */
  async close(): Promise<void> {
    await (await this.agent).destroy();
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    // Playwright splits a multi-valued set-cookie on newlines; other headers join with commas.
    headers[name] = Array.isArray(value) ? value.join(name === "set-cookie" ? "\n" : ", ") : value;
  }
  return headers;
}

function decode(body: Buffer, encoding: string): Buffer {
  if (body.length === 0) return body;
  try {
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body);
    if (encoding === "br") return brotliDecompressSync(body);
    if (encoding === "deflate") {
      try {
        return inflateSync(body);
      } catch {
        return inflateRawSync(body);
      }
    }
  } catch {
    // A body that claims an encoding it does not have is passed on as sent, like browsers do.
  }
  return body;
}
