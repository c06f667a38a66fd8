/**
 * SSRF guard, part 1: which IP addresses a capture may never reach, and the URL pre-check.
 *
 * The list is "everything that is not globally routable unicast", so it covers RFC 1918, loopback,
 * link-local (169.254.0.0/16 holds the AWS/GCP/Azure metadata address 169.254.169.254), CGNAT
 * (100.64.0.0/10 holds Alibaba's 100.100.100.200), unique-local IPv6 (fc00::/7 holds AWS's
 * fd00:ec2::254), multicast, documentation and reserved ranges. IPv6 forms that embed an IPv4
 * address (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96) are judged by the embedded address;
 * the deprecated IPv4-compatible ::/96, 6to4 and Teredo are refused outright. Addresses are compared
 * as integers, so every spelling (compressed, dotted tail, zone id) lands on the same check.
 * The URL parser is WHATWG's, which already turns `http://2130706433/` and `0x7f.1` into 127.0.0.1.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { CaptureError } from "./errors.ts";

/** Resolves a hostname to every address it has (A and AAAA). Injectable so tests can fake DNS. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const BLOCKED_V4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
];
const BLOCKED_V6 = [
  "::/96", // unspecified, loopback and the deprecated IPv4-compatible form
  "::ffff:0:0:0/96", // IPv4-translated (SIIT)
  "64:ff9b:1::/48", // local-use NAT64
  "100::/64", // discard-only
  "2001::/23", // IETF protocol assignments, Teredo
  "2001:db8::/32", // documentation
  "2002::/16", // 6to4
  "3fff::/20", // documentation
  "5f00::/16", // SRv6 SIDs
  "fc00::/7", // unique-local (fd00:ec2::254 is AWS's metadata service)
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated)
  "ff00::/8", // multicast
];

interface Cidr {
  base: bigint;
  mask: bigint;
}

function v4ToBigInt(ip: string): bigint {
  return ip.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6ToBigInt(ip: string): bigint {
  let text = ip;
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const v4 = v4ToBigInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].reduce(
    (acc, group) => (acc << 16n) | BigInt(Number.parseInt(group, 16)),
    0n,
  );
}

function parseCidr(cidr: string, bits: number): Cidr {
  const [address = "", prefix = "0"] = cidr.split("/");
  const value = bits === 32 ? v4ToBigInt(address) : v6ToBigInt(address);
  const hostBits = BigInt(bits - Number(prefix));
  const mask = ((1n << BigInt(bits)) - 1n) ^ ((1n << hostBits) - 1n);
  return { base: value & mask, mask };
}

const v4Ranges = BLOCKED_V4.map((cidr) => parseCidr(cidr, 32));
const v6Ranges = BLOCKED_V6.map((cidr) => parseCidr(cidr, 128));
const inRanges = (value: bigint, ranges: Cidr[]) => ranges.some((r) => (value & r.mask) === r.base);

const MAPPED_PREFIX = 0xffffn << 32n; // ::ffff:0:0/96
const NAT64_PREFIX = v6ToBigInt("64:ff9b::");
const LOW_96_MASK = ((1n << 128n) - 1n) ^ ((1n << 32n) - 1n);

/**
 * True when a capture must not connect to `ip`. Anything that is not a valid IP literal counts as
 * private, so a caller that passes garbage fails closed.
 */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, "").split("%")[0] ?? "";
  const family = isIP(address);
  if (family === 4) return inRanges(v4ToBigInt(address), v4Ranges);
  if (family !== 6) return true;
  const value = v6ToBigInt(address.toLowerCase());
  const high = value & LOW_96_MASK;
  if (high === MAPPED_PREFIX || high === NAT64_PREFIX) {
    const v4 = value & 0xffffffffn;
    return inRanges(v4, v4Ranges);
  }
  return inRanges(value, v6Ranges);
}

/** Parses a URL the browser will fetch; anything but http(s) is refused. */
export function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CaptureError("blocked-url", `Not a valid URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new CaptureError("blocked-url", `Only http and https URLs can be captured: ${parsed.protocol}`);
  return parsed;
}

/** The hostname without IPv6 brackets, as the resolver and `isIP` expect it. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * Throws CaptureError("blocked-url") unless `url` is http(s) and every address its host resolves to
 * is public. This is the early, friendly check; the connection itself is checked again at connect
 * time (see fetcher.ts), which is what defeats DNS rebinding.
 */
export async function assertPublicUrl(
  url: string,
  options: { resolve?: Resolver; isBlocked?: (ip: string) => boolean } = {},
): Promise<void> {
  const parsed = parseHttpUrl(url);
  const host = hostOf(parsed);
  const isBlocked = options.isBlocked ?? isPrivateAddress;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch (error) {
      throw new CaptureError("load-failed", `Could not resolve ${host}`, { cause: error });
    }
  }
  if (addresses.length === 0) throw new CaptureError("load-failed", `Could not resolve ${host}`);
  const blocked = addresses.find(isBlocked);
  if (blocked !== undefined)
    throw new CaptureError("blocked-url", `${host} resolves to a private address (${blocked})`);
}
