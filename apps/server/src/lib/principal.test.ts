import { EXTENSION_ID } from "@redline/shared";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import type { UserRow } from "../db/schema/index.ts";
import { loadConfig } from "../env.ts";
import { adminActorOf } from "../modules/admin/admin.policy.ts";
import { getActor } from "../modules/auth/session.ts";
import { LINK_VISITOR, policyActorOf } from "./policy.ts";
import { isExtensionOrigin, linkGuestOf, type PersonPrincipal } from "./principal.ts";

describe("the browser extension's origins (EXTENSION_ORIGINS)", () => {
  const firefox = "moz-extension://5a1e6c1e-0b5e-4c6e-9d1e-3f0c2a9b7d41";

  it("admits the Chromium build's fixed id and, by default, any Firefox installation (each has its own id)", () => {
    const { extensionOrigins } = loadConfig({ DATA_DIR: "/tmp/redline-env-test" });
    expect(extensionOrigins).toEqual([`chrome-extension://${EXTENSION_ID}`, "moz-extension://*"]);
    expect(isExtensionOrigin(`chrome-extension://${EXTENSION_ID}`, extensionOrigins)).toBe(true);
    expect(isExtensionOrigin(firefox, extensionOrigins)).toBe(true);
    expect(isExtensionOrigin("chrome-extension://abcdefghijklmnopabcdefghijklmnop", extensionOrigins)).toBe(
      false,
    );
  });

  it("admits only the listed ones when set: an exact origin is not a prefix", () => {
    const { extensionOrigins } = loadConfig({
      DATA_DIR: "/tmp/redline-env-test",
      EXTENSION_ORIGINS: ` ${firefox}/ , chrome-extension://*`,
    });
    expect(extensionOrigins).toEqual([firefox, "chrome-extension://*"]);
    expect(isExtensionOrigin(firefox, extensionOrigins)).toBe(true);
    expect(isExtensionOrigin(`${firefox}0`, extensionOrigins)).toBe(false);
    expect(isExtensionOrigin("moz-extension://0b5e0b5e-0000-4000-8000-000000000000", extensionOrigins)).toBe(
      false,
    );
    expect(isExtensionOrigin(`chrome-extension://${EXTENSION_ID}`, extensionOrigins)).toBe(true);
  });

  it("refuses what is not an extension's origin, whatever the list", () => {
    const all = ["moz-extension://*", "chrome-extension://*"];
    for (const origin of [
      undefined,
      "",
      "null",
      "moz-extension://",
      "https://moz-extension.example",
      "moz-extension://evil.example",
      "moz-extension://id:8080",
      `${firefox}/path`,
      "http://localhost:3000",
    ])
      expect(isExtensionOrigin(origin, all)).toBe(false);
  });
});

describe("a policy's actor made from the principal", () => {
  const user = { id: "u-1", email: "op@example.com", emailVerified: true, disabledAt: null } as UserRow;
  const createdAt = new Date();
  const people: PersonPrincipal[] = [
    { kind: "session", user, createdAt },
    { kind: "token", user, tokenId: "t-1", scope: "read-write", createdAt },
    { kind: "extension", user, tokenId: "t-2", createdAt },
  ];
  const requestOf = (principal: PersonPrincipal) => ({ principal }) as unknown as FastifyRequest;

  it.each(people)(
    "carries how a person came ($kind), from the principal or the Actor read from it",
    (principal) => {
      const actor = getActor(requestOf(principal))!;
      expect(actor.kind).toBe(principal.kind);
      for (const caller of [principal, actor])
        expect(policyActorOf(caller, "edit")).toEqual({
          userId: "u-1",
          access: "edit",
          isGuest: false,
          kind: principal.kind,
        });
    },
  );

  it("makes a visitor of the public link a guest, with what the link allows", () => {
    const visitor = linkGuestOf({ headers: { "x-redline-guest": "Ann" } });
    for (const caller of [visitor, LINK_VISITOR])
      expect(policyActorOf(caller, "comment")).toEqual({
        userId: null,
        access: "comment",
        isGuest: true,
        kind: "link-guest",
      });
  });

  it("lets an operator act as one only through their browser session, not a token or the extension", () => {
    const access = people.map((principal) => [
      principal.kind,
      adminActorOf(["op@example.com"], getActor(requestOf(principal))).access,
    ]);
    expect(access).toEqual([
      ["session", "admin"],
      ["token", null],
      ["extension", null],
    ]);
  });
});
