/**
 * better-auth's browser client, mounted by the server at /api/auth. Every call goes through
 * `authCall`, which turns the library's `{data, error}` into a value or a thrown AuthError whose
 * code is the spec's 'auth/…' code (SPEC §8).
 */
import { authErrorMessage, toAuthCode } from "@redline/shared";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({
  baseURL: window.location.origin,
  basePath: "/api/auth",
});

export class AuthError extends Error {
  constructor(
    /** 'auth/…' code, e.g. 'auth/invalid-credential'. */
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

interface LibraryError {
  code?: string;
  message?: string;
  status: number;
}

export function toAuthError(error: LibraryError): AuthError {
  const code = error.status === 429 ? "auth/too-many-requests" : toAuthCode(error.code);
  // Unknown codes keep the server's own sentence rather than a vague 'Internal error'.
  const message = code === "auth/internal-error" && error.message ? error.message : authErrorMessage(code);
  return new AuthError(code, error.status, message);
}

export async function authCall<T>(
  call: Promise<{ data: T; error: null } | { data: null; error: LibraryError }>,
): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new AuthError("auth/network-request-failed", 0, authErrorMessage("auth/network-request-failed"));
  }
  if (result.error) throw toAuthError(result.error);
  return result.data as T;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong";
}
