/**
 * A team's custom domain through the API (GET/PUT/DELETE /api/teams/{id}/domain, POST …/check). Key
 * ['api', 'teams', id, 'domain'], under the teams key, so `teams.changed` refreshes it with the rest;
 * a write puts its answer in the cache at once. A plan's 402 opens the upgrade prompt instead of an error.
 */
import { SNACKBAR_MS, type TeamDomain } from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { checkOutcome } from "./domain-status.ts";
import { TEAMS_KEY, teamKey } from "./team-queries.ts";

interface DomainAnswer {
  data: TeamDomain | null;
  message?: string;
}

export const teamDomainKey = (teamId: string) => [...teamKey(teamId), "domain"] as const;
const domainPath = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}/domain`;

export function useTeamDomain(teamId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: teamDomainKey(teamId),
    enabled,
    queryFn: async ({ signal }) => (await api<DomainAnswer>(domainPath(teamId), { signal })).data,
  });
}

/** Every domain write: the answer goes into the cache, the teams (their `domain`) are refetched. */
function useDomainWrite<Input>(teamId: string, call: (input: Input) => Promise<DomainAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (answer) => queryClient.setQueryData(teamDomainKey(teamId), answer.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEAMS_KEY }),
  });
}

/** Errors stay with the form (under the field); a plan's 402 opens the upgrade prompt. */
export function useSetTeamDomain(teamId: string) {
  return useDomainWrite(teamId, (domain: string) =>
    api<DomainAnswer>(domainPath(teamId), { method: "PUT", body: { domain } }),
  );
}

export function useCheckTeamDomain(teamId: string) {
  const mutation = useDomainWrite(teamId, () =>
    api<DomainAnswer>(`${domainPath(teamId)}/check`, { method: "POST" }),
  );
  return {
    ...mutation,
    check: () =>
      mutation.mutate(undefined, {
        onSuccess: ({ data, message }) => {
          if (!message) return;
          const show = { success: snackbar.success, warning: snackbar.warning, info: snackbar.info }[
            checkOutcome(data?.status ?? null)
          ];
          show(message, SNACKBAR_MS.team);
        },
        onError: (error) => {
          if (!showPlanRefusal(error)) snackbar.error(errorMessage(error), SNACKBAR_MS.team);
        },
      }),
  };
}

export function useRemoveTeamDomain(teamId: string) {
  return useDomainWrite(teamId, () => api<DomainAnswer>(domainPath(teamId), { method: "DELETE" }));
}
