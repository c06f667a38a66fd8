/**
 * The embedded DNS server's page and API under /dev/dns (development and tests only, like the dev
 * mailbox): see and edit its record table, and create in one click the records a team's custom domain
 * asks for — so the custom-domain flow can be walked without a DNS provider. JSON for scripts and
 * tests (`GET/POST /dev/dns/records`, `DELETE /dev/dns/records/:recordId`), forms for the page.
 */
import { domainRecords, normalizeHost } from "@redline/shared";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@redline/shared/http-errors";
import { asc, eq, isNotNull } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Host as AppContext } from "../port.ts";
import { route } from "../route.ts";
import { teams } from "../store-schema.ts";
import { html } from "../stripe/dev-pages.routes.ts";
import { type DevDnsServer, DNS_DEV_TYPES, DnsRecordConflict } from "./dns-dev.server.ts";
import { dnsDevMessagePage, dnsDevPage } from "./dns-dev-page.ts";

/** Looser than a team's domain: one label (`localhost`, the dev CNAME target) and `_service` labels too. */
const HOST_LIKE = /^(?!-)[a-z0-9_-]{1,63}(?:\.(?!-)[a-z0-9_-]{1,63})*\.?$/i;
const isHostLike = (value: string) => value.length <= 254 && HOST_LIKE.test(value);

const recordSchema = z
  .object({
    type: z.enum(DNS_DEV_TYPES),
    name: z.string().trim().min(1).max(253),
    value: z.string().trim().min(1).max(1024),
    ttl: z.coerce.number().int().min(0).max(86_400).optional(),
  })
  .strict()
  .superRefine((record, issues) => {
    if (!isHostLike(record.name))
      issues.addIssue({
        code: "custom",
        path: ["name"],
        message: "Enter a host name, e.g. review.example.com.",
      });
    if (record.type === "A" && !z.ipv4().safeParse(record.value).success)
      issues.addIssue({
        code: "custom",
        path: ["value"],
        message: "An A record's value is an IPv4 address.",
      });
    if (record.type === "CNAME" && !isHostLike(record.value))
      issues.addIssue({ code: "custom", path: ["value"], message: "A CNAME's value is a host name." });
  });
const recordParams = z.object({ recordId: z.string().min(1).max(64) });
const domainParams = z.object({ domain: z.string().min(1).max(253) });

export async function dnsDevRoutes(
  app: FastifyInstance,
  { ctx, dns }: { ctx: AppContext; dns: DevDnsServer },
) {
  const { db } = ctx.database;
  const appOrigin = new URL(ctx.config.appUrl).origin;
  const target = ctx.config.customDomains.target;
  app.addHook("onClose", () => dns.close());

  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  // Another site must not edit a developer's zone through their browser: writes come from the app's
  // own pages, or from a script that sends no Origin at all.
  app.addHook("onRequest", async (request) => {
    if (request.method === "GET" || request.method === "HEAD") return;
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== appOrigin)
      throw new ForbiddenError("Cross-site request refused.", "csrf");
  });

  const isForm = (request: FastifyRequest) =>
    (request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
  // The page's forms get their errors as a page; the JSON API as the app's usual error body.
  app.setErrorHandler((error, request, reply) => {
    if (request.url !== "/dev/dns" && !isForm(request)) throw error;
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error(error);
    return html(
      reply,
      status,
      status >= 500
        ? dnsDevMessagePage("Something went wrong", "The embedded DNS server failed.")
        : dnsDevMessagePage("Cannot do that", (error as Error).message),
    );
  });
  const backToPage = (reply: FastifyReply) => reply.redirect("/dev/dns", 303);
  const add = (input: z.infer<typeof recordSchema>) => {
    try {
      return dns.add(input);
    } catch (error) {
      if (error instanceof DnsRecordConflict) throw new ConflictError(error.message, "dns-conflict");
      throw error;
    }
  };

  app.get(
    "/dev/dns",
    route({ summary: "The embedded DNS server's records (development only)", action: "public" }),
    async (_request, reply) => {
      const domains = await db
        .select({
          name: teams.name,
          domain: teams.domain,
          status: teams.domainStatus,
          token: teams.domainToken,
        })
        .from(teams)
        .where(isNotNull(teams.domain))
        .orderBy(asc(teams.domain));
      return html(
        reply,
        200,
        dnsDevPage({
          server: dns.address,
          records: dns.list(),
          domains: domains.map((row) => ({
            team: row.name,
            domain: row.domain!,
            status: row.status ?? "pending",
            records: domainRecords(row.domain!, target, row.token ?? ""),
          })),
        }),
      );
    },
  );

  app.get(
    "/dev/dns/records",
    route({ summary: "The embedded DNS server's records as JSON (development only)", action: "public" }),
    async () => ({ data: { server: dns.address, records: dns.list() } }),
  );

  app.post(
    "/dev/dns/records",
    route({ summary: "Add a record to the embedded DNS server (development only)", action: "public" }),
    async (request, reply) => {
      const parsed = recordSchema.safeParse(request.body ?? {});
      if (!parsed.success)
        throw new BadRequestError(parsed.error.issues.map((issue) => issue.message).join(" "), "validation");
      const record = add(parsed.data);
      if (isForm(request)) return backToPage(reply);
      reply.status(201);
      return { data: record };
    },
  );

  app.delete(
    "/dev/dns/records/:recordId",
    route({ summary: "Remove a record from the embedded DNS server (development only)", action: "public" }),
    async (request) => {
      const { recordId } = recordParams.parse(request.params);
      if (!dns.remove(recordId)) throw new NotFoundError("No such record.", "dns-record-not-found");
      return { data: { removed: recordId } };
    },
  );

  app.post(
    "/dev/dns/records/:recordId/delete",
    route({ summary: "Remove a record (the page's form; development only)", action: "public" }),
    async (request, reply) => {
      dns.remove(recordParams.parse(request.params).recordId);
      return backToPage(reply);
    },
  );

  app.post(
    "/dev/dns/domains/:domain",
    route({ summary: "Create a team domain's CNAME and TXT records (development only)", action: "public" }),
    async (request, reply) => {
      const domain = normalizeHost(domainParams.parse(request.params).domain);
      const [team] = await db
        .select({ token: teams.domainToken })
        .from(teams)
        .where(eq(teams.domain, domain));
      if (!team?.token) throw new NotFoundError("No team has this domain.", "domain-not-found");
      const created = domainRecords(domain, target, team.token).map((record) =>
        add({ type: record.type, name: record.name, value: record.value }),
      );
      if (isForm(request)) return backToPage(reply);
      reply.status(201);
      return { data: created };
    },
  );
}
