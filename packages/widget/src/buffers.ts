/**
 * The ring buffers the stub keeps from page load: console messages (log/info/warn/error), uncaught errors
 * and unhandled rejections (last 50 together), and failed requests — fetch and XHR answered ≥ 400 or
 * never answered (last 50). Console output still reaches the console: the wrappers only take a copy.
 * The widget's own output (its chunks', snapdom's warnings among them) is the widget's, not the page's: a
 * message whose call stack passes through a script of the widget's folder, or an error thrown from one, is
 * not kept.
 */
import type { Buffers, ConsoleEntry } from "./types.ts";

// MAX_CONSOLE_ENTRIES and MAX_FAILED_REQUESTS of @redline/shared's tickets.ts (the intake refuses more),
// written out: importing them would bundle that module's zod schemas into the stub (buffers.test.ts pins them).
export const MAX_CONSOLE_ENTRIES = 50;
export const MAX_FAILED_REQUESTS = 50;

const MAX_MESSAGE = 2000;
const MAX_URL = 2048;

function push<T>(ring: T[], entry: T, max: number) {
  ring.push(entry);
  if (ring.length > max) ring.splice(0, ring.length - max);
}

/** One console argument as text: errors with their stack, objects as JSON when they can be. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack || `${value.name}: ${value.message}`;
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * `ignore(url)`: our own calls to the intake are not the page's failures. `base`: the folder the widget's
 * scripts come from.
 */
export function installBuffers(ignore: (url: string) => boolean, base: string): Buffers {
  const buffers: Buffers = { console: [], requests: [] };

  const log = (level: ConsoleEntry["level"], message: string) =>
    push(buffers.console, { level, message: cut(message, MAX_MESSAGE), at: Date.now() }, MAX_CONSOLE_ENTRIES);
  const failed = (method: string, url: string, status: number) => {
    if (ignore(url)) return;
    push(
      buffers.requests,
      { method: cut(method.toUpperCase(), 16), url: cut(url, MAX_URL), status, at: Date.now() },
      MAX_FAILED_REQUESTS,
    );
  };

  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const level of ["log", "info", "warn", "error"] as const) {
    const original = target[level];
    if (typeof original !== "function") continue;
    target[level] = function (this: unknown, ...args: unknown[]) {
      try {
        // This wrapper is one frame of the widget's (the stack is taken here, not in a helper, so it is the
        // only one); a second one means the widget itself is logging.
        if ((new Error().stack ?? "").split(base).length <= 2) log(level, args.map(describeValue).join(" "));
      } catch {}
      return original.apply(this, args);
    };
  }

  addEventListener("error", (event) => {
    // Resource load errors (an <img> 404) arrive here too, without a message; the request list has them.
    if (!(event instanceof ErrorEvent) || event.filename.startsWith(base)) return;
    const where = event.filename ? ` (${event.filename}:${event.lineno}:${event.colno})` : "";
    const detail = event.error instanceof Error ? describeValue(event.error) : event.message;
    log("uncaught", `${detail}${where}`);
  });
  addEventListener("unhandledrejection", (event) => log("unhandledrejection", describeValue(event.reason)));

  const nativeFetch = window.fetch;
  if (typeof nativeFetch === "function") {
    window.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      const method = init?.method ?? (input instanceof Request ? input.method : "GET");
      const url = input instanceof Request ? input.url : String(input instanceof URL ? input.href : input);
      const absolute = new URL(url, location.href).href;
      return nativeFetch.call(this ?? window, input, init).then(
        (response) => {
          if (response.status >= 400) failed(method, absolute, response.status);
          return response;
        },
        (error: unknown) => {
          if (!(error instanceof DOMException && error.name === "AbortError")) failed(method, absolute, 0);
          throw error;
        },
      );
    } as typeof window.fetch;
  }

  const xhr = XMLHttpRequest.prototype;
  const open = xhr.open;
  const send = xhr.send;
  const requestOf = new WeakMap<XMLHttpRequest, { method: string; url: string }>();
  xhr.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    try {
      requestOf.set(this, { method, url: new URL(String(url), location.href).href });
    } catch {}
    return (open as (...args: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof xhr.open;
  xhr.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const request = requestOf.get(this);
    if (request) {
      this.addEventListener("load", () => {
        if (this.status >= 400) failed(request.method, request.url, this.status);
      });
      this.addEventListener("error", () => failed(request.method, request.url, 0));
      this.addEventListener("timeout", () => failed(request.method, request.url, 0));
    }
    return send.call(this, body);
  };
  return buffers;
}
