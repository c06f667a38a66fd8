/**
 * Ending a session (sign-out, account deletion, forced re-login). SPEC §4: sign-out clears all stores
 * and goes to `/`. The cached user becomes null, every other query is dropped, and a one-shot flag
 * tells the route guard to send the visitor to `/` rather than to `/?goto=…`.
 */
import type { QueryClient } from "@tanstack/react-query";
import { ME_KEY } from "./use-me.ts";

let signedOutOnPurpose = false;

/** True right after a deliberate sign-out; the landing page resets it. */
export function wasSignedOutOnPurpose(): boolean {
  return signedOutOnPurpose;
}

export function resetSignedOutFlag(): void {
  signedOutOnPurpose = false;
}

export async function endSession(
  queryClient: QueryClient,
  { onPurpose = true, callServer = true }: { onPurpose?: boolean; callServer?: boolean } = {},
): Promise<void> {
  if (callServer) {
    // Loaded on demand: the route guards import this module, and the auth client (better-auth, zod)
    // must not weigh on the signed-out landing page's first load (issue #34).
    const { authClient } = await import("../../lib/auth-client.ts");
    await authClient.signOut().catch(() => undefined);
  }
  signedOutOnPurpose = onPurpose;
  await queryClient.cancelQueries();
  queryClient.removeQueries({ predicate: (query) => !isMeKey(query.queryKey) });
  queryClient.setQueryData(ME_KEY, null);
}

function isMeKey(key: readonly unknown[]): boolean {
  return key.length === ME_KEY.length && key.every((part, index) => part === ME_KEY[index]);
}
