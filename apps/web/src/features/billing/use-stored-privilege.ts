/**
 * Takes a stored privilege grant (see privilege-grant.ts) as soon as a verified user is signed in, once:
 * the app layout uses it, so it runs wherever the user lands after verifying their e-mail.
 */
import type { User } from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { takePrivilege } from "./grant-queries.ts";
import { readStoredPrivilege } from "./privilege-grant.ts";

// Tokens sent in this tab: a remount (or React's development double effect) must not send one again.
const sent = new Set<string>();

export function useStoredPrivilege(user: User | null | undefined): void {
  const queryClient = useQueryClient();
  const isVerified = Boolean(user?.emailVerified);
  useEffect(() => {
    if (!isVerified) return;
    const grant = readStoredPrivilege();
    if (!grant || sent.has(grant.token)) return;
    sent.add(grant.token);
    void takePrivilege(queryClient, grant);
  }, [isVerified, queryClient]);
}
