/**
 * Talking to Redline from the extension's own pages and worker (never from a content script): the
 * credential lives in the extension's storage, which pages cannot read, and is sent only to Redline.
 */
export const REDLINE_URL = (import.meta.env.WXT_REDLINE_URL ?? "http://localhost:3000").replace(/\/$/, "");

export interface Account {
  secret: string;
  user: { name: string; email: string };
}

export async function account(): Promise<Account | null> {
  const { account } = await browser.storage.local.get("account");
  return (account as Account | undefined) ?? null;
}

export class RedlineError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A call to the extension's API; a refused credential signs the extension out. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const held = await account();
  let response: Response;
  try {
    response = await fetch(`${REDLINE_URL}${path}`, {
      method,
      headers: {
        ...(held && { authorization: `Bearer ${held.secret}` }),
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new RedlineError("Redline cannot be reached: check your connection and try again.", 0);
  }
  const parsed = (await response.json().catch(() => ({}))) as { message?: string };
  if (response.status === 401 && held) await browser.storage.local.remove("account");
  if (!response.ok) throw new RedlineError(parsed.message ?? "Something went wrong.", response.status);
  return parsed as T;
}

/** Base64url of random bytes, and the SHA-256 of a string in base64url (the sign-in's challenge). */
export function randomVerifier(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

export async function challengeOf(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}
