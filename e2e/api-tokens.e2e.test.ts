/**
 * API tokens in a real browser (issue #28): made in Account Settings, shown once, used by a script with
 * nothing but the token, listed with its last use, revoked — and refused at once after.
 */
import { API_TOKEN_MESSAGES } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { shot, signedIn } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e.close());

/** A script's call: the token alone, no cookie, no browser. */
const script = (secret: string, method: string, path: string, body?: unknown) =>
  fetch(e2e.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe("API tokens", () => {
  it("creates a token shown once, lets a script use it, and revokes it at once", async () => {
    const { page } = await signedIn(e2e, "tokens");
    await page.goto("/profile");
    const section = page.getByRole("region", { name: "API tokens" });
    await section.getByText("No API tokens yet.").waitFor();

    await section.getByLabel("Token name").fill("Release script");
    await section.getByRole("radio", { name: "Read and write" }).check();
    await section.getByLabel("Expires after").selectOption({ label: "30 days" });
    await section.getByRole("button", { name: "Create token" }).click();

    const secretBox = section.getByLabel("Your new API token");
    await secretBox.waitFor();
    await section.getByText(API_TOKEN_MESSAGES.created).waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^rl_/);
    // The name field is ready for the next token; the new one is listed with its access and no use yet.
    expect(await section.getByLabel("Token name").inputValue()).toBe("");
    const list = section.getByRole("list", { name: "Your API tokens" });
    await list.getByText("Release script").waitFor();
    await list.getByText("Read and write").waitFor();
    await list.getByText(/Never used/).waitFor();
    await shot(page, "api-tokens-created");

    // A script with only the token reads and writes as this person.
    expect((await script(secret, "GET", "/api/projects")).status).toBe(200);
    const made = await script(secret, "POST", "/api/projects", { type: "web", title: "Made by a script" });
    expect(made.status).toBe(201);

    // The secret is never shown again; the list now says it was used.
    await page.reload();
    await list.getByText(/Last used just now/).waitFor();
    expect(await section.getByLabel("Your new API token").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    await list.getByRole("button", { name: "Revoke token Release script" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this token?" });
    await dialog.getByText(/Release script.*stop working at once/).waitFor();
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await page.getByText(API_TOKEN_MESSAGES.revoked).waitFor();
    await section.getByText("No API tokens yet.").waitFor();
    const refused = await script(secret, "GET", "/api/projects");
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe(API_TOKEN_MESSAGES.invalid);

    // What the script made is the person's own.
    await page.goto("/projects");
    await page.getByText("Made by a script").first().waitFor();
  });
});
