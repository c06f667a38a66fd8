/**
 * Sends generated malformed requests to every route of the running app's OpenAPI document (which is
 * built from the route registry), as every kind of caller: nobody, the owner, a viewer member, a guest
 * holding the public link, the owner's read-write API token, the viewer's read-only one and a malformed one. Path ids are real fixture ids or malformed ones; bodies, queries and
 * uploads are hostile (NUL and lone surrogates, huge or fractional numbers, wrong types, deep nesting,
 * invalid JSON, broken multipart). For every answer: never a 5xx; and when the request was refused
 * (4xx), nothing stored changed — neither the database nor the file store.
 *
 * Used by fuzz.test.ts (bounded, in `npm test`) and bench/reliability (long runs).
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { digest } from "./db-digest.ts";
import { type ApiClient, signUpVerified } from "./http-client.ts";
import type { TestApp } from "./test-app.ts";

interface Operation {
  method: string;
  /** OpenAPI path, e.g. /api/projects/{projectId}. */
  path: string;
  bodyKeys: string[];
  queryKeys: string[];
  upload: boolean;
}

export interface FuzzResult {
  requests: number;
  /** "status METHOD path" of every 5xx. */
  serverErrors: string[];
  /** Refused requests after which the database or the file store had changed. */
  changedOnRefusal: string[];
  /** Requests per operation, "METHOD path" → count. */
  perOperation: Map<string, number>;
  /** How many operations the registry offers the fuzzer (each is drawn when runs allow). */
  operations: number;
}

type Caller = "nobody" | "owner" | "viewer" | "guest" | "ownerToken" | "viewerReadToken" | "badToken";
const CALLERS: Caller[] = ["nobody", "owner", "viewer", "guest", "ownerToken", "viewerReadToken", "badToken"];
const GUEST_HEADER = { "x-redline-guest": "guest__1__Gail__gail@example.com" };

async function operations(t: TestApp): Promise<Operation[]> {
  const document = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string }[];
          requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
        }
      >
    >;
  };
  const found: Operation[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    // The WebSocket and better-auth's wildcard are fuzzed elsewhere (realtime and auth tests).
    if (route === "/api/realtime" || route.startsWith("/api/auth/")) continue;
    for (const [method, operation] of Object.entries(methods)) {
      const content = operation.requestBody?.content ?? {};
      found.push({
        method: method.toUpperCase(),
        path: route,
        bodyKeys: Object.keys(content["application/json"]?.schema?.properties ?? {}),
        queryKeys: (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        upload: "multipart/form-data" in content,
      });
    }
  }
  return found;
}

/**
 * A project with a page, a comment and a member, its public link on with comments; a bug-tracking project
 * with a list and a ticket for the board's routes; ids by name.
 */
async function fixture(t: TestApp) {
  const stamp = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const viewerEmail = `fuzz-viewer-${stamp}@example.com`;
  const [owner, viewer] = await Promise.all([
    signUpVerified(t.url, t.inbox!, `fuzz-owner-${stamp}@example.com`),
    signUpVerified(t.url, t.inbox!, viewerEmail),
  ]);
  const projectId = (await owner.post("/api/projects", { title: "Fuzz" })).body.data.id as string;
  const added = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/fuzz" }))
    .body.data;
  const member = await owner.post(`/api/projects/${projectId}/members`, {
    email: viewerEmail,
    access: "view",
  });
  await owner.patch(`/api/projects/${projectId}/sharing`, {
    public: true,
    canComment: true,
    showEdits: true,
  });
  const comment = (
    await owner.post(`/api/versions/${added.versionId}/comments`, {
      comment: "Fuzz",
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
    })
  ).body.data;
  const viewerUid = (await viewer.get("/api/me")).body.data.uid as string;
  const ids: Record<string, string> = {
    projectId,
    pageId: added.pageId,
    versionId: added.versionId,
    commentId: comment.id,
    entryId: comment.thread[0].id,
    memberId: member.body.data.id,
    userId: viewerUid,
    notificationId: "none-yet",
    changeId: "none-yet",
    sha: "0".repeat(64),
  };
  // A bug-tracking project of the same people for the board's routes (a web project has no board): a list
  // and a ticket with a reply, the viewer a member.
  const boardId = (await owner.post("/api/projects", { title: "Fuzz board", type: "browse" })).body.data.id;
  await owner.post(`/api/projects/${boardId}/members`, { email: viewerEmail, access: "view" });
  const listId = (await owner.post(`/api/projects/${boardId}/lists`, { title: "To do" })).body.data.id;
  const ticket = (await owner.post(`/api/projects/${boardId}/tickets`, { listId, title: "Fuzz ticket" })).body
    .data;
  const reply = (await owner.post(`/api/tickets/${ticket.id}/entries`, { comment: "Fuzz reply" })).body.data;
  const boardIds: Record<string, string> = {
    ...ids,
    projectId: boardId,
    listId,
    ticketId: ticket.id,
    entryId: reply.thread?.at(-1)?.id ?? reply.id,
  };
  return { owner, viewer, ids, boardIds };
}

const nastyText = fc.oneof(
  fc.constantFrom("\u0000", "a\u0000b", "\uD800", "x\uDC00", "", " ", "%00", "../../etc/passwd", "<script>"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constant("x".repeat(5000)),
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyText,
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, -0, 1e308, 0.5, Number.NaN),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(nastyText, { maxLength: 3 }),
  fc.dictionary(nastyText, nastyText, { maxKeys: 3 }),
);
const malformedId = fc.oneof(
  fc.constantFrom("%00", "a%00b", "%ZZ", "..", "a%20b", "%E2%80%8B", "x".repeat(200), "demo", "%F0%9F"),
  fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "")) || "x"),
);

/** The request body as sent: JSON text (maybe broken), or nothing. */
function bodyArbitrary(operation: Operation): fc.Arbitrary<string | undefined> {
  const keys = operation.bodyKeys.length > 0 ? operation.bodyKeys : ["x"];
  const object = fc
    .dictionary(fc.oneof(fc.constantFrom(...keys), nastyText), nastyValue, { maxKeys: 4 })
    .map((value) => JSON.stringify(value));
  const deep = fc.integer({ min: 50, max: 3000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`);
  const broken = fc.constantFrom('{"a":', "nul", "[1,2", '{"__proto__":{"x":1}}', '"\\u0000"', "{}", "[]");
  return fc.oneof(
    { weight: 5, arbitrary: object },
    { weight: 1, arbitrary: nastyValue.map((value) => JSON.stringify(value) ?? "null") },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: broken },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function multipartArbitrary(): fc.Arbitrary<{ body: string; contentType: string }> {
  const part = (boundary: string, data: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.png"\r\nContent-Type: image/png\r\n\r\n${data}\r\n--${boundary}--\r\n`;
  return fc.oneof(
    fc
      .string({ maxLength: 50 })
      .map((data) => ({ body: part("b", data), contentType: "multipart/form-data" })),
    fc.string({ maxLength: 50 }).map((data) => ({
      body: part("b", data),
      contentType: "multipart/form-data; boundary=z",
    })),
    fc.integer({ min: 0, max: 80 }).map((cut) => ({
      body: part("b", "PNGDATA").slice(0, cut),
      contentType: "multipart/form-data; boundary=b",
    })),
  );
}

async function listFiles(t: TestApp): Promise<string> {
  const root = t.ctx.config.filesDir;
  const files = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  return files
    .map((file) => path.join(root, file))
    .sort()
    .join("\n");
}

export async function fuzzApp(t: TestApp, options: { runs: number; seed?: number }): Promise<FuzzResult> {
  const { owner, viewer, ids, boardIds } = await fixture(t);
  const isBoardPath = (path: string) => /\/(board|lists|tickets|widget)\b/.test(path);
  const clients: Record<Caller, ApiClient | null> = {
    nobody: null,
    owner,
    viewer,
    guest: null,
    ownerToken: null,
    viewerReadToken: null,
    badToken: null,
  };
  // API tokens: the owner's read-write one, the viewer's read-only one, and a header that is not a token.
  const tokenOf = async (client: ApiClient, scope: string) =>
    (await client.post("/api/me/tokens", { name: "Fuzz", scope })).body.data.secret as string;
  const bearer: Partial<Record<Caller, string>> = {
    ownerToken: `Bearer ${await tokenOf(owner, "read-write")}`,
    viewerReadToken: `Bearer ${await tokenOf(viewer, "read")}`,
    badToken: "Bearer rl_not a token; drop table users",
  };
  const ops = await operations(t);
  const result: FuzzResult = {
    requests: 0,
    serverErrors: [],
    changedOnRefusal: [],
    perOperation: new Map(),
    operations: ops.length,
  };

  // Every operation is drawn (runs spread evenly over them, the first ones one more when they do not
  // divide), so coverage of the registry does not depend on chance.
  const requestFor = (operation: Operation) =>
    fc.record({
      operation: fc.constant(operation),
      payload: operation.upload
        ? multipartArbitrary()
        : operation.method === "GET"
          ? fc.constant({ body: undefined, contentType: "application/json" })
          : bodyArbitrary(operation).map((body) => ({ body, contentType: "application/json" })),
      caller: fc.constantFrom(...CALLERS),
      useRealIds: fc.boolean(),
      ids: fc.dictionary(fc.constantFrom(...Object.keys(boardIds)), malformedId),
      query: fc.dictionary(
        fc.oneof(fc.constantFrom("q", "list", "sort", "projectId", "cursor", "url", "limit"), nastyText),
        nastyText,
        {
          maxKeys: 3,
        },
      ),
    });
  for (const [index, operation] of ops.entries()) {
    const runs = Math.floor(options.runs / ops.length) + (index < options.runs % ops.length ? 1 : 0);
    if (runs === 0) continue;
    await fc.assert(
      fc.asyncProperty(requestFor(operation), fc.context(), async (generated, context) => {
        const { operation, caller } = generated;
        // Deleting the fixture with its real ids would leave nothing to fuzz: deletions get malformed ids.
        const real = generated.useRealIds && operation.method !== "DELETE";
        const url = operation.path.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) =>
          real
            ? ((isBoardPath(operation.path) ? boardIds : ids)[name] ?? "x")
            : (generated.ids[name] ?? "%00"),
        );
        const query = new URLSearchParams();
        for (const [key, value] of Object.entries(generated.query)) query.append(key, value);
        const target = `${t.url}${url}${query.size > 0 ? `?${query}` : ""}`;

        const { body, contentType } = generated.payload;
        const headers: Record<string, string> = { origin: t.url };
        if (body !== undefined) headers["content-type"] = contentType;
        const client = clients[caller];
        if (client) headers.cookie = client.cookieHeader();
        if (caller === "guest") Object.assign(headers, GUEST_HEADER);
        if (bearer[caller]) headers.authorization = bearer[caller]!;

        const [before, filesBefore] = await Promise.all([digest(t.ctx), listFiles(t)]);
        const response = await fetch(target, { method: operation.method, headers, body });
        await response.arrayBuffer();
        result.requests++;
        const key = `${operation.method} ${operation.path}`;
        result.perOperation.set(key, (result.perOperation.get(key) ?? 0) + 1);
        context.log(
          `${caller} ${operation.method} ${target} ${body?.slice(0, 200) ?? ""} → ${response.status}`,
        );
        if (response.status >= 500)
          result.serverErrors.push(`${response.status} ${operation.method} ${target}`);
        if (response.status >= 400 && response.status < 500) {
          const [after, filesAfter] = await Promise.all([digest(t.ctx), listFiles(t)]);
          if (JSON.stringify(after) !== JSON.stringify(before) || filesAfter !== filesBefore)
            result.changedOnRefusal.push(`${response.status} ${caller} ${operation.method} ${target}`);
        }
        return true;
      }),
      { numRuns: runs, seed: options.seed, endOnFailure: true },
    );
  }
  return result;
}
