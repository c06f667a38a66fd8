/**
 * The other ways to hold a plan (SPEC §7 specialPrivilege, §9 lifetime tiers): taking a privilege link
 * (POST /api/me/privilege) and redeeming a lifetime-deal code (POST /api/me/lifetime-deal) or a
 * partner-program code (POST /api/me/partner-plan). Each answers
 * with the updated session user and a `message`; a new plan changes limits, expiry and abilities, so
 * billing and projects are read again too.
 */
import type { LifetimeRedeemInput, PrivilegeLinkState, PrivilegeRedeemInput, User } from "@redline/shared";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { ApiError, api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { PROJECTS_KEY } from "../projects/project-queries.ts";
import { ME_KEY } from "../session/use-me.ts";
import { BILLING_KEY } from "./billing-queries.ts";
import { clearStoredPrivilege } from "./privilege-grant.ts";

interface GrantAnswer {
  data: User;
  message: string;
}

/** Codes under which the server explains why a grant cannot be taken (404, 409). */
export const GRANT_ERROR_CODES = ["grant-invalid", "grant-used", "grant-expired"] as const;

export function isGrantError(error: unknown): error is ApiError {
  return error instanceof ApiError && (GRANT_ERROR_CODES as readonly string[]).includes(error.code);
}

/**
 * GET /api/privilege-links/{plan}: whether a privilege link can still be taken, asked before the sign-up
 * page promises its plan (a used or expired link is told so at once, not after signing up).
 */
export function usePrivilegeLinkState(grant: PrivilegeRedeemInput | null) {
  return useQuery({
    queryKey: ["api", "privilege-links", grant?.plan, grant?.token],
    queryFn: async ({ signal }) =>
      (
        await api<{ data: PrivilegeLinkState }>(
          `/api/privilege-links/${encodeURIComponent(grant!.plan)}?token=${encodeURIComponent(grant!.token)}`,
          { signal },
        )
      ).data,
    enabled: grant !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

async function applyGrantedUser(queryClient: QueryClient, user: User): Promise<void> {
  queryClient.setQueryData(ME_KEY, user);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: BILLING_KEY }),
    queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
  ]);
}

/**
 * Takes a stored privilege grant. Any answer from the server settles it (the grant is removed, taken or
 * not); only an unreachable server leaves it for the next visit.
 */
export async function takePrivilege(queryClient: QueryClient, grant: PrivilegeRedeemInput): Promise<void> {
  let answer: GrantAnswer;
  try {
    answer = await api<GrantAnswer>("/api/me/privilege", { method: "POST", body: grant });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "network")) clearStoredPrivilege();
    snackbar.error(errorMessage(error));
    return;
  }
  clearStoredPrivilege();
  snackbar.success(answer.message);
  await applyGrantedUser(queryClient, answer.data);
}

export type DealCodeKind = "lifetime" | "partner";
const DEAL_CODE_PATHS: Record<DealCodeKind, string> = {
  lifetime: "/api/me/lifetime-deal",
  partner: "/api/me/partner-plan",
};

/**
 * Redeems a lifetime-deal or partner code. A code that is not valid or already used is for the form to
 * show under its field (`isGrantError`); anything else goes to a snackbar.
 */
export function useRedeemDealCode(kind: DealCodeKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LifetimeRedeemInput) =>
      api<GrantAnswer>(DEAL_CODE_PATHS[kind], { method: "POST", body: input }),
    onSuccess: async ({ data, message }) => {
      snackbar.success(message);
      await applyGrantedUser(queryClient, data);
    },
    onError: (error) => {
      if (!isGrantError(error)) snackbar.error(errorMessage(error));
    },
  });
}
