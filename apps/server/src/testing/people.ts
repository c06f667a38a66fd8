/** Signed-up, verified people for API tests, and the assertion that a refused call changed nothing. */
import { expect } from "vitest";
import { digest } from "./db-digest.ts";
import { type ApiClient, signUpVerified } from "./http-client.ts";
import type { TestApp } from "./test-app.ts";

let counter = 0;
/** A fresh address per call, named for the reader of a failing test. */
export const uniqueEmail = (name: string) =>
  `${name.toLowerCase()}-${Date.now().toString(36)}-${++counter}@example.com`;

export interface Person {
  client: ApiClient;
  address: string;
  uid: string;
}

/** Signs a new person up and verifies them; `displayName` defaults to "Test User". */
export async function signUpPerson(t: TestApp, name: string, displayName?: string): Promise<Person> {
  const address = uniqueEmail(name);
  const client = await signUpVerified(t.url, t.inbox!, address, undefined, displayName);
  const uid = (await client.get("/api/me")).body.data.uid as string;
  return { client, address, uid };
}

/**
 * Asserts a refused call: its status (and code when given), a message saying why, and not a row or file
 * changed. Returns the answer for further checks.
 */
export async function expectRefused(
  t: TestApp,
  call: () => Promise<{ status: number; body: any }>,
  status: number,
  code?: string,
): Promise<{ status: number; body: any }> {
  const before = await digest(t.ctx);
  const response = await call();
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  if (code) expect(response.body.code).toBe(code);
  expect(response.body.message).toEqual(expect.any(String));
  expect(await digest(t.ctx)).toEqual(before);
  return response;
}
