/**
 * The embedded Trello stand-in (development and tests only; no TRELLO_API_KEY): Trello's REST API at its
 * paths (`/1/…`) under one prefix, with what the app calls — the authorize page of client.js's
 * `Trello.authorize` (the token handed back in the return URL's fragment, `callback_method=fragment`), the
 * member, boards and lists, cards (create, update `closed`/`dueComplete`, delete) and webhooks. A webhook
 * is checked with a HEAD to its callback URL when made (as Trello does) and hears each card change as an
 * `action`, signed as Trello signs: `X-Trello-Webhook` = base64 HMAC-SHA1 of the body followed by the
 * callback URL, under the application's secret. A card has a page (its `url`) where one archives it.
 * Everything lives in memory, like a fresh Trello account per run.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { authedHandlers } from "../tracker-api.ts";
import { Faults } from "../tracker-faults.ts";
import { acceptForms, authorizeRoutes, testControls } from "../tracker-oauth.ts";
import { itemPageRoutes } from "../tracker-pages.ts";
import { authorizePage, cardPage, errorPage } from "./trello-pages.ts";

export interface TrelloDevOptions {
  /** The app's public URL: cards' URLs and the authorize page are `${appUrl}${prefix}/…`. */
  appUrl: string;
  prefix: string;
  /** The one application this stand-in knows: its API key and the secret webhooks are signed with. */
  apiKey: string;
  apiSecret: string;
}

interface Member {
  id: string;
  username: string;
  fullName: string;
}
interface Board {
  id: string;
  name: string;
  memberId: string;
}
interface List {
  id: string;
  name: string;
  idBoard: string;
}
interface Card {
  id: string;
  shortLink: string;
  idShort: number;
  name: string;
  desc: string;
  idList: string;
  idBoard: string;
  closed: boolean;
  dueComplete: boolean;
  dateLastActivity: string;
}
interface Hook {
  id: string;
  memberId: string;
  idModel: string;
  callbackURL: string;
  description: string;
  active: boolean;
}

const hex24 = () => randomBytes(12).toString("hex");

/** Trello's webhook signature: base64 HMAC-SHA1 of the body followed by the callback URL. */
export function trelloSignature(secret: string, body: string, callbackURL: string): string {
  return createHmac("sha1", secret)
    .update(body + callbackURL)
    .digest("base64");
}

const authorizeQuery = z.object({
  key: z.string().max(200),
  return_url: z.string().max(2000),
  callback_method: z.enum(["fragment", "postMessage"]).default("fragment"),
  response_type: z.literal("token").default("token"),
  scope: z.string().max(100).default("read"),
  expiration: z.string().max(20).default("30days"),
  name: z.string().max(200).default("An application"),
});

const cardInput = z.object({
  idList: z.string().max(100).optional(),
  name: z.string().max(16384).optional(),
  desc: z.string().max(16384).optional(),
  closed: z.enum(["true", "false"]).or(z.boolean()).optional(),
  dueComplete: z.enum(["true", "false"]).or(z.boolean()).optional(),
});

const hookInput = z.object({
  callbackURL: z.url().max(2000),
  idModel: z.string().max(100),
  description: z.string().max(16384).default(""),
});

/** Trello takes the key and token as parameters or as `Authorization: OAuth oauth_consumer_key="…", oauth_token="…"`. */
function oauthHeader(header: string | undefined): { key?: string; token?: string } {
  if (!header?.startsWith("OAuth ")) return {};
  const fields = Object.fromEntries(
    [...header.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], decodeURIComponent(match[2]!)]),
  );
  return { key: fields.oauth_consumer_key, token: fields.oauth_token };
}

const asBool = (value: string | boolean | undefined) =>
  value === undefined ? undefined : String(value) === "true";

export async function trelloDevRoutes(app: FastifyInstance, options: TrelloDevOptions) {
  const { prefix } = options;
  const members = new Map<string, Member>();
  const tokens = new Map<string, string>(); // token → member id
  const boards = new Map<string, Board>();
  const lists = new Map<string, List>();
  const cards = new Map<string, Card>();
  const hooks = new Map<string, Hook>();
  const faults = new Faults();
  let cardCount = 0;

  acceptForms(app);

  /** Trello takes a call's parameters in the query string or the body alike. */
  const paramsOf = (request: FastifyRequest): Record<string, unknown> => ({
    ...(request.query as Record<string, unknown>),
    ...(request.body && typeof request.body === "object" ? (request.body as Record<string, unknown>) : {}),
  });

  /** The member the key and token name, or the answer Trello gives (a text body, as Trello's). */
  const memberOf = (request: FastifyRequest, reply: FastifyReply): Member | null => {
    if (faults.answer(reply, (status) => (status === 429 ? "API_TOKEN_LIMIT_EXCEEDED" : "Internal error")))
      return null;
    const params = { ...paramsOf(request), ...oauthHeader(request.headers.authorization) };
    if (params.key !== options.apiKey) {
      reply.status(401).type("text/plain").send("invalid key");
      return null;
    }
    const memberId = typeof params.token === "string" ? tokens.get(params.token) : undefined;
    const member = memberId ? members.get(memberId) : undefined;
    if (!member) {
      reply.status(401).type("text/plain").send("invalid token");
      return null;
    }
    return member;
  };

  const cardUrl = (card: Card) => `${options.appUrl}${prefix}/c/${card.shortLink}`;
  const presentCard = (card: Card) => ({
    id: card.id,
    name: card.name,
    desc: card.desc,
    idList: card.idList,
    idBoard: card.idBoard,
    idShort: card.idShort,
    shortLink: card.shortLink,
    closed: card.closed,
    dueComplete: card.dueComplete,
    dateLastActivity: card.dateLastActivity,
    url: cardUrl(card),
    shortUrl: `${options.appUrl}${prefix}/c/${card.shortLink}`,
  });
  const boardOfMember = (id: string, member: Member) => {
    const board = boards.get(id);
    return board && board.memberId === member.id ? board : null;
  };
  const cardOfMember = (id: string, member: Member) => {
    const card = [...cards.values()].find((c) => c.id === id || c.shortLink === id);
    return card && boardOfMember(card.idBoard, member) ? card : null;
  };

  /** The API's handlers: for the token's member, and for a board, card or webhook of theirs (Trello's 404). */
  const authed = authedHandlers(memberOf);
  const notFound = (reply: FastifyReply) =>
    reply.status(404).type("text/plain").send("The requested resource was not found.");
  const param = (request: FastifyRequest, name: string) => (request.params as Record<string, string>)[name]!;
  const withBoard = authed.about(
    (request, member) => boardOfMember(param(request, "boardId"), member),
    notFound,
  );
  const withCard = authed.about(
    (request, member) => cardOfMember(param(request, "cardId"), member),
    notFound,
  );
  const withHook = authed.about((request, member) => {
    const hook = hooks.get(param(request, "hookId"));
    return hook?.memberId === member.id ? hook : null;
  }, notFound);

  /** Tells each webhook on the card or its board of an action, signed; failures are the receiver's. */
  const notify = async (
    card: Card,
    type: string,
    data: Record<string, unknown>,
    memberId: string,
  ): Promise<void> => {
    const board = boards.get(card.idBoard);
    const list = lists.get(card.idList);
    const targets = [...hooks.values()].filter(
      (hook) => hook.active && (hook.idModel === card.id || hook.idModel === card.idBoard),
    );
    await Promise.all(
      targets.map(async (hook) => {
        const body = JSON.stringify({
          action: {
            id: hex24(),
            idMemberCreator: memberId,
            type,
            date: new Date().toISOString(),
            data: {
              card: {
                id: card.id,
                name: card.name,
                idShort: card.idShort,
                shortLink: card.shortLink,
                ...(data.card as object),
              },
              ...(data.old !== undefined && { old: data.old }),
              board: board && { id: board.id, name: board.name },
              list: list && { id: list.id, name: list.name },
            },
          },
          model: hook.idModel === card.id ? presentCard(card) : board && { id: board.id, name: board.name },
          webhook: { id: hook.id, idModel: hook.idModel, callbackURL: hook.callbackURL },
        });
        try {
          await fetch(hook.callbackURL, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-trello-webhook": trelloSignature(options.apiSecret, body, hook.callbackURL),
            },
            body,
            signal: AbortSignal.timeout(10_000),
          });
        } catch {
          // Trello retries a failing callback a few times and then gives up; a lost action is the receiver's.
        }
      }),
    );
  };

  /** A card's change as Trello records it: an `updateCard` action with the fields' old values. */
  const updateCard = async (
    card: Card,
    changes: { closed?: boolean; dueComplete?: boolean },
    memberId: string,
  ) => {
    const old: Record<string, unknown> = {};
    for (const key of ["closed", "dueComplete"] as const) {
      const value = changes[key];
      if (value !== undefined && value !== card[key]) {
        old[key] = card[key];
        card[key] = value;
      }
    }
    card.dateLastActivity = new Date().toISOString();
    if (Object.keys(old).length > 0)
      await notify(
        card,
        "updateCard",
        { card: { closed: card.closed, dueComplete: card.dueComplete }, old },
        memberId,
      );
  };

  /** A new member starts with one board of three lists, as Trello's template does. */
  const newMember = (fullName: string): Member => {
    const member = {
      id: hex24(),
      username: fullName.toLowerCase().replace(/\W+/g, "") || "member",
      fullName,
    };
    members.set(member.id, member);
    const board = { id: hex24(), name: "Redline reviews", memberId: member.id };
    boards.set(board.id, board);
    for (const name of ["To Do", "Doing", "Done"]) {
      const list = { id: hex24(), name, idBoard: board.id };
      lists.set(list.id, list);
    }
    return member;
  };

  // client.js's flow: no code and no state of Trello's; the token in the return URL's fragment.
  authorizeRoutes(app, {
    path: "/1/authorize",
    prefix,
    service: "Trello",
    query: authorizeQuery,
    problem: (query) =>
      query.key !== options.apiKey
        ? "Invalid API key."
        : !URL.canParse(query.return_url)
          ? "Invalid return_url."
          : null,
    malformed: "The request is missing a required parameter or has one that is not valid.",
    errorPage,
    page: (query, hidden) =>
      authorizePage({ action: `${prefix}/1/authorize`, appName: query.name, scope: query.scope, hidden }),
    nameField: "member",
    defaultName: "Test member",
    returnUrl: (query) => query.return_url,
    deny: (back) => {
      back.hash = "error=access_denied";
    },
    allow: (back, _query, fullName) => {
      const member = [...members.values()].find((m) => m.fullName === fullName) ?? newMember(fullName);
      const token = `ATTA${randomBytes(32).toString("hex")}`;
      tokens.set(token, member.id);
      back.hash = `token=${token}`;
    },
  });

  app.get(
    "/1/members/me",
    route({ summary: "The token's member (embedded Trello)", action: "public" }),
    authed(async (member) => {
      return { id: member.id, username: member.username, fullName: member.fullName };
    }),
  );

  app.get(
    "/1/members/me/boards",
    route({ summary: "The member's boards (embedded Trello)", action: "public" }),
    authed(async (member) => {
      return [...boards.values()]
        .filter((board) => board.memberId === member.id)
        .map((board) => ({
          id: board.id,
          name: board.name,
          closed: false,
          url: `${options.appUrl}${prefix}/b/${board.id}`,
        }));
    }),
  );

  app.get(
    "/1/boards/:boardId/lists",
    route({ summary: "A board's open lists (embedded Trello)", action: "public" }),
    withBoard(async (board) => {
      return [...lists.values()]
        .filter((list) => list.idBoard === board.id)
        .map((list) => ({ id: list.id, name: list.name, closed: false, idBoard: list.idBoard }));
    }),
  );

  app.post(
    "/1/cards",
    route({ summary: "Create a card (embedded Trello)", action: "public" }),
    authed(async (member, request, reply) => {
      const input = cardInput.safeParse(paramsOf(request));
      const list = input.success && input.data.idList ? lists.get(input.data.idList) : undefined;
      if (!input.success || !list || !boardOfMember(list.idBoard, member))
        return reply.status(400).type("text/plain").send("invalid value for idList");
      cardCount += 1;
      const card: Card = {
        id: hex24(),
        shortLink: randomBytes(6).toString("base64url").slice(0, 8),
        idShort: cardCount,
        name: input.data.name ?? "",
        desc: input.data.desc ?? "",
        idList: list.id,
        idBoard: list.idBoard,
        closed: false,
        dueComplete: false,
        dateLastActivity: new Date().toISOString(),
      };
      cards.set(card.id, card);
      return presentCard(card);
    }),
  );

  app.get(
    "/1/cards/:cardId",
    route({ summary: "A card (embedded Trello)", action: "public" }),
    withCard(presentCard),
  );

  app.put(
    "/1/cards/:cardId",
    route({ summary: "Update a card: archive it, mark it complete (embedded Trello)", action: "public" }),
    withCard(async (card, member, request, reply) => {
      const input = cardInput.safeParse(paramsOf(request));
      if (!input.success) return reply.status(400).type("text/plain").send("invalid value");
      if (input.data.name !== undefined) card.name = input.data.name;
      if (input.data.desc !== undefined) card.desc = input.data.desc;
      await updateCard(
        card,
        { closed: asBool(input.data.closed), dueComplete: asBool(input.data.dueComplete) },
        member.id,
      );
      return presentCard(card);
    }),
  );

  app.delete(
    "/1/cards/:cardId",
    route({ summary: "Delete a card (embedded Trello)", action: "public" }),
    withCard(async (card, member) => {
      cards.delete(card.id);
      await notify(card, "deleteCard", { card: {} }, member.id);
      return { limits: {} };
    }),
  );

  app.post(
    "/1/webhooks",
    route({ summary: "Create a webhook (embedded Trello)", action: "public" }),
    authed(async (member, request, reply) => {
      const input = hookInput.safeParse(paramsOf(request));
      if (!input.success) return reply.status(400).type("text/plain").send("invalid value for callbackURL");
      const { idModel, callbackURL, description } = input.data;
      if (!boardOfMember(idModel, member) && !cardOfMember(idModel, member))
        return reply.status(400).type("text/plain").send("invalid value for idModel");
      // Trello makes sure the callback answers before it keeps a webhook.
      const check = await fetch(callbackURL, { method: "HEAD", signal: AbortSignal.timeout(10_000) }).catch(
        () => null,
      );
      if (check?.status !== 200)
        return reply
          .status(400)
          .type("text/plain")
          .send(`URL (${callbackURL}) did not return 200 status code, got ${check?.status ?? "no answer"}`);
      const hook: Hook = {
        id: hex24(),
        memberId: member.id,
        idModel,
        callbackURL,
        description,
        active: true,
      };
      hooks.set(hook.id, hook);
      return { id: hook.id, description, idModel, callbackURL, active: true, consecutiveFailures: 0 };
    }),
  );

  app.delete(
    "/1/webhooks/:hookId",
    route({ summary: "Delete a webhook (embedded Trello)", action: "public" }),
    withHook(async (hook) => {
      hooks.delete(hook.id);
      return { _value: null };
    }),
  );

  const cardByLink = (shortLink: string) => [...cards.values()].find((c) => c.shortLink === shortLink);

  itemPageRoutes(app, {
    path: "/c/:shortLink",
    summaries: {
      page: "A card's page (embedded Trello)",
      act: "Archive a card, or send it back to its board, from its page (embedded Trello)",
    },
    find: (request) => cardByLink((request.params as { shortLink: string }).shortLink),
    missing: { page: errorPage("Card not found."), text: "Card not found." },
    page: (card) =>
      cardPage({
        action: `${prefix}/c/${card.shortLink}`,
        name: card.name,
        desc: card.desc,
        board: boards.get(card.idBoard)?.name ?? "",
        list: lists.get(card.idList)?.name ?? "",
        closed: card.closed,
        dueComplete: card.dueComplete,
      }),
    act: async (card, form) => {
      const board = boards.get(card.idBoard);
      await updateCard(card, { closed: form.closed === "true" }, board?.memberId ?? "");
    },
    url: (card) => `${prefix}/c/${card.shortLink}`,
  });

  testControls(app, { service: "Trello", faults });
}
