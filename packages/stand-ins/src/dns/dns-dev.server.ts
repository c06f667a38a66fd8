/**
 * The embedded DNS server (development and tests; never in production or with DNS_SERVERS): a UDP
 * server on 127.0.0.1 speaking the DNS wire protocol (RFC 1035, through dns-packet), authoritative for
 * whatever its record table holds — A, CNAME and TXT. The app's resolver asks it, so a developer can
 * walk a custom domain from pending to active after `npm start`, and tests can do the same. The table
 * lives in memory: records vanish with the process, like a scratch zone.
 *
 * Answers follow real DNS: the records of the asked type; at a name with a CNAME, the CNAME (and what
 * the table holds at its target); NOERROR with no answers at a name that has other types (NODATA);
 * NXDOMAIN at a name the table does not know.
 */
import { randomUUID } from "node:crypto";
import { createSocket, type RemoteInfo } from "node:dgram";
import dnsPacket, { type Answer } from "dns-packet";

export const DNS_DEV_TYPES = ["A", "CNAME", "TXT"] as const;
export type DnsDevType = (typeof DNS_DEV_TYPES)[number];

export interface DnsDevRecord {
  id: string;
  type: DnsDevType;
  /** Lower-case, no trailing dot. */
  name: string;
  value: string;
  ttl: number;
}

/** A record that cannot sit beside the table's others (RFC 1034 §3.6.2: a CNAME stands alone). */
export class DnsRecordConflict extends Error {}

export interface DevDnsServer {
  /** "127.0.0.1:port": what a resolver's setServers takes. */
  address: string;
  port: number;
  list(): DnsDevRecord[];
  add(record: Omit<DnsDevRecord, "id" | "ttl"> & { ttl?: number }): DnsDevRecord;
  remove(id: string): boolean;
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, FORMERR: 1, NXDOMAIN: 3, NOTIMP: 4 } as const;
const DEFAULT_TTL = 60;
/** How many CNAMEs an answer follows through the table before giving up (a loop). */
const MAX_CHAIN = 8;

const canonical = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

export async function startDevDnsServer({ port = 0 }: { port?: number } = {}): Promise<DevDnsServer> {
  const records: DnsDevRecord[] = [];
  const socket = createSocket("udp4");

  const answer = (name: string, type: string): { rcode: number; answers: Answer[] } => {
    const answers: Answer[] = [];
    let current = canonical(name);
    for (let hop = 0; hop < MAX_CHAIN; hop++) {
      const here = records.filter((record) => record.name === current);
      if (here.length === 0) return { rcode: hop === 0 ? RCODE.NXDOMAIN : RCODE.NOERROR, answers };
      const alias = here.find((record) => record.type === "CNAME");
      const matching = here.filter((record) => record.type === type);
      if (matching.length > 0 || !alias || type === "CNAME") {
        answers.push(...matching.map(toAnswer));
        return { rcode: RCODE.NOERROR, answers };
      }
      answers.push(toAnswer(alias));
      current = alias.value;
    }
    return { rcode: RCODE.NOERROR, answers };
  };

  socket.on("message", (message: Buffer, remote: RemoteInfo) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return; // Not DNS: nothing to answer.
    }
    const question = query.questions?.[0];
    const reply = (rcode: number, answers: Answer[] = []) =>
      socket.send(
        dnsPacket.encode({
          type: "response",
          id: query.id,
          flags: dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | rcode,
          questions: query.questions,
          answers,
        }),
        remote.port,
        remote.address,
      );
    if (!question) return reply(RCODE.FORMERR);
    if (question.class !== "IN") return reply(RCODE.NOTIMP);
    const { rcode, answers } = answer(question.name, question.type);
    reply(rcode, answers);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, "127.0.0.1", () => {
      socket.off("error", reject);
      resolve();
    });
  });
  const bound = socket.address().port;

  return {
    address: `127.0.0.1:${bound}`,
    port: bound,
    list: () => records.map((record) => ({ ...record })),
    add(input) {
      const record: DnsDevRecord = {
        id: randomUUID(),
        type: input.type,
        name: canonical(input.name),
        value: input.type === "TXT" ? input.value : canonical(input.value),
        ttl: input.ttl ?? DEFAULT_TTL,
      };
      const here = records.filter((existing) => existing.name === record.name);
      const same = here.find((existing) => existing.type === record.type && existing.value === record.value);
      if (same) return { ...same };
      if (here.some((existing) => existing.type === "CNAME") || (record.type === "CNAME" && here.length > 0))
        throw new DnsRecordConflict(
          `${record.name} already has records: a CNAME must be the only record at its name.`,
        );
      records.push(record);
      return { ...record };
    },
    remove(id) {
      const index = records.findIndex((record) => record.id === id);
      if (index < 0) return false;
      records.splice(index, 1);
      return true;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function toAnswer(record: DnsDevRecord): Answer {
  const base = { name: record.name, ttl: record.ttl, class: "IN" as const };
  if (record.type === "TXT") return { ...base, type: "TXT", data: chunks(record.value) };
  return { ...base, type: record.type, data: record.value };
}

/** A TXT record carries strings of at most 255 bytes: longer values are split, as DNS providers do. */
function chunks(value: string): Buffer[] {
  const bytes = Buffer.from(value, "utf8");
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 255) parts.push(bytes.subarray(at, at + 255));
  return parts.length > 0 ? parts : [Buffer.alloc(0)];
}
