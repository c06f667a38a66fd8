/**
 * How the app asks DNS (custom domains' TXT and CNAME checks): node's own resolver, pointed at the
 * servers the config names — the embedded DNS server in development and tests, chosen servers with
 * DNS_SERVERS, else the system's resolvers. "No such record" is an answer (null); a server that cannot
 * be reached or fails is an error, so a check never mistakes an outage for a missing record.
 */
import { Resolver } from "node:dns/promises";

export interface DnsLookup {
  /** The TXT records at `name`, each as the strings DNS carries it in; null when there are none. */
  txt(name: string): Promise<string[][] | null>;
  /** The CNAME targets of `name`; null when it has none. */
  cname(name: string): Promise<string[] | null>;
}

/** DNS could not say (timeout, refused, server failure): nothing should be concluded from it. */
export class DnsLookupError extends Error {
  constructor(
    readonly code: string,
    name: string,
  ) {
    super(`DNS lookup of ${name} failed: ${code}`);
  }
}

/** The answers that mean "this record does not exist" rather than "DNS failed". */
const NO_RECORD = new Set(["ENODATA", "ENOTFOUND", "NOTFOUND", "ENONAME"]);

export function createDnsLookup(
  servers: string[] | null,
  { timeoutMs = 2000, tries = 2 }: { timeoutMs?: number; tries?: number } = {},
): DnsLookup {
  const resolver = new Resolver({ timeout: timeoutMs, tries });
  if (servers) resolver.setServers(servers);
  const ask = async <T>(name: string, query: () => Promise<T[]>): Promise<T[] | null> => {
    try {
      const answers = await query();
      return answers.length > 0 ? answers : null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "EUNKNOWN";
      if (NO_RECORD.has(code)) return null;
      throw new DnsLookupError(code, name);
    }
  };
  return {
    txt: (name) => ask(name, () => resolver.resolveTxt(name)),
    cname: (name) => ask(name, () => resolver.resolveCname(name)),
  };
}
