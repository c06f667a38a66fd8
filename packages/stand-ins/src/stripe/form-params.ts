/**
 * Stripe's request encoding: application/x-www-form-urlencoded with bracket notation, in bodies and
 * in query strings alike (`line_items[0][price]=…`, `metadata[uid]=…`, `expand[0]=…` or `expand[]=…`).
 * The SDK writes arrays with indexes; browsers' forms send flat keys. Parsed here rather than with
 * `qs`, which the app does not otherwise need: the shapes are few and the limits are ours.
 */
import { isStorableText } from "../text.ts";
import { StripeApiError } from "./stripe-errors.ts";

const MAX_PAIRS = 500;
const MAX_DEPTH = 6;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Objects under these keys stay objects even when their keys look like indexes. */
const KEEP_AS_OBJECT = new Set(["metadata"]);

type Tree = { [key: string]: string | Tree };

/** `a[b][0]` → ["a", "b", "0"]; `a[]` → ["a", ""]. */
function segmentsOf(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const segments = [key.slice(0, open)];
  const rest = key.slice(open);
  const pattern = /\[([^[\]]*)\]/gy;
  let consumed = 0;
  for (let match = pattern.exec(rest); match; match = pattern.exec(rest)) {
    segments.push(match[1]!);
    consumed = pattern.lastIndex;
  }
  if (consumed !== rest.length) throw invalid(key);
  return segments;
}

function invalid(key: string): StripeApiError {
  return new StripeApiError(400, `Invalid parameter: ${key}.`, { param: key, code: "parameter_invalid" });
}

/** Objects whose keys are all indexes become arrays, in index order. */
function finish(tree: Tree, parentKey: string | null): unknown {
  const entries = Object.entries(tree).map(
    ([key, value]) => [key, typeof value === "string" ? value : finish(value, key)] as const,
  );
  const isList =
    entries.length > 0 &&
    !(parentKey && KEEP_AS_OBJECT.has(parentKey)) &&
    entries.every(([key]) => /^\d{1,4}$/.test(key));
  if (!isList) return Object.fromEntries(entries);
  return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, value]) => value);
}

/** Parses a urlencoded body or query string into nested objects and arrays of strings. */
export function parseStripeParams(text: string): Record<string, unknown> {
  const root = Object.create(null) as Tree;
  let pairs = 0;
  for (const [key, value] of new URLSearchParams(text)) {
    if (++pairs > MAX_PAIRS) throw new StripeApiError(400, "Too many parameters.");
    if (!isStorableText(key) || !isStorableText(value))
      throw new StripeApiError(400, "Parameters may not contain NUL characters or unpaired surrogates.");
    const segments = segmentsOf(key);
    if (segments.length > MAX_DEPTH || segments.some((segment) => FORBIDDEN_KEYS.has(segment)))
      throw invalid(key);
    let node = root;
    for (let i = 0; i < segments.length; i++) {
      let segment = segments[i]!;
      // `a[]`: the next free index.
      if (segment === "") segment = String(Object.keys(node).length);
      if (i === segments.length - 1) {
        if (segment in node && typeof node[segment] !== "string") throw invalid(key);
        node[segment] = value;
      } else {
        const next = node[segment] ?? (Object.create(null) as Tree);
        if (typeof next === "string") throw invalid(key);
        node[segment] = next;
        node = next;
      }
    }
  }
  return finish(root, null) as Record<string, unknown>;
}

/** The query string of a request URL, parsed the same way. */
export function queryParams(url: string): Record<string, unknown> {
  const start = url.indexOf("?");
  return start < 0 ? {} : parseStripeParams(url.slice(start + 1));
}
