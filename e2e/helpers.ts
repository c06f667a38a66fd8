/** Steps the journeys share: a signed-in browser page for a fresh user, a project, a screenshot. */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { type ApiClient, signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, uniqueEmail } from "./harness.ts";

export const PASSWORD = "correct horse battery";

/** Saves a screenshot when E2E_SCREENSHOTS names a folder (for looking at the screens), else nothing. */
export async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.E2E_SCREENSHOTS;
  if (!folder) return;
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: `${folder}/${name}.png` });
}

/** Signs up and verifies through the API, then signs in through the UI. Returns the API client too. */
export async function signedIn(
  e2e: E2E,
  prefix: string,
  name = "Ada Lovelace",
): Promise<{ page: Page; api: ApiClient; email: string }> {
  const email = uniqueEmail(prefix);
  const api = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, email, PASSWORD, name);
  const page = await e2e.newPage();
  await page.goto("/");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/projects");
  return { page, api, email };
}

export async function newProject(api: ApiClient, title: string, type = "web"): Promise<string> {
  const created = await api.post("/api/projects", { title, type });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}
