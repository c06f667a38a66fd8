/**
 * Teams through the API (GET/POST /api/teams, /api/teams/{id}, its members and its leave route). Keys
 * follow the routes: ['api', 'teams'] lists, ['api', 'teams', id] one team with its people. Every write
 * invalidates ['api', 'teams'], so names, roles and abilities agree everywhere; the server's message shows
 * for 7 s like every team message (SPEC §9).
 */
import {
  type Product,
  SNACKBAR_MS,
  TEAM_MESSAGES,
  type Team,
  type TeamAccess,
  type TeamDetail,
} from "@redline/shared";
import { type Query, useMutation, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";

export const TEAMS_KEY = ["api", "teams"] as const;
export const teamKey = (teamId: string) => [...TEAMS_KEY, teamId] as const;
const teamPath = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}`;

const showMessage = (message: string | undefined, fallback: string) =>
  snackbar.success(message || fallback, SNACKBAR_MS.team);
const showError = (error: unknown) => snackbar.error(errorMessage(error), SNACKBAR_MS.team);

interface Answer<T> {
  data: T;
  message?: string;
}

/** The user's teams of a product; `enabled: false` waits (e.g. until the profile menu opens). */
export function useTeams(product: Product, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...TEAMS_KEY, { product }],
    enabled,
    queryFn: async ({ signal }) =>
      (await api<Answer<Team[]>>(`/api/teams?product=${product}`, { signal })).data,
  });
}

export function useTeam(teamId: string | null) {
  return useQuery({
    queryKey: teamKey(teamId ?? ""),
    enabled: teamId !== null,
    queryFn: async ({ signal }) => (await api<Answer<TeamDetail>>(teamPath(teamId ?? ""), { signal })).data,
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
}

export function useCreateTeam() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { product: Product; name?: string }) =>
      api<Answer<Team>>("/api/teams", { method: "POST", body: input }),
    onSuccess: ({ message }) => showMessage(message, TEAM_MESSAGES.created),
    onError: showError,
    onSettled: invalidate,
  });
}

export function useRenameTeam(teamId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (name: string) => api<Answer<Team>>(teamPath(teamId), { method: "PATCH", body: { name } }),
    onSuccess: ({ message }) => showMessage(message, TEAM_MESSAGES.renamed),
    onError: showError,
    onSettled: invalidate,
  });
}

/** Errors stay with the form (under its field); success is the server's message. */
export function useInviteTeamMember(teamId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { email: string; access: TeamAccess }) =>
      api<Answer<unknown>>(`${teamPath(teamId)}/members`, { method: "POST", body: input }),
    onSuccess: ({ message }) => showMessage(message, TEAM_MESSAGES.invited),
    onSettled: invalidate,
  });
}

export function useUpdateTeamMember(teamId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ memberId, access }: { memberId: string; access: TeamAccess }) =>
      api<Answer<unknown>>(`${teamPath(teamId)}/members/${encodeURIComponent(memberId)}`, {
        method: "PATCH",
        body: { access },
      }),
    onSuccess: ({ message }) => showMessage(message, TEAM_MESSAGES.accessUpdated),
    onError: showError,
    onSettled: invalidate,
  });
}

export function useRemoveTeamMember(teamId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    // A collaborator leaves the collaborators list only (SPEC §4): its own route.
    mutationFn: ({ memberId, collaborator }: { memberId: string; collaborator: boolean }) =>
      api<Answer<unknown>>(
        `${teamPath(teamId)}/${collaborator ? "collaborators" : "members"}/${encodeURIComponent(memberId)}`,
        { method: "DELETE" },
      ),
    onSuccess: ({ message }, { collaborator }) =>
      showMessage(message, collaborator ? TEAM_MESSAGES.collaboratorRemoved : TEAM_MESSAGES.removed),
    onError: showError,
    onSettled: invalidate,
  });
}

const leaveTeamKey = (teamId: string) => [...teamKey(teamId), "leave"] as const;

/**
 * Leaving: the team goes from every cached list at once, and nothing asks for it again — it is no longer
 * the user's, so any read of it would answer "not found" (SPEC §8 has only 'You left the team.').
 */
export function useLeaveTeam(teamId: string) {
  const queryClient = useQueryClient();
  const isLeftTeam = (query: Query) => query.queryKey[2] === teamId;
  return useMutation({
    mutationKey: leaveTeamKey(teamId),
    mutationFn: () => api<Answer<unknown>>(`${teamPath(teamId)}/leave`, { method: "POST" }),
    onSuccess: async ({ message }) => {
      showMessage(message, TEAM_MESSAGES.left);
      await queryClient.cancelQueries({ predicate: isLeftTeam });
      queryClient.setQueriesData<Team[]>(
        { queryKey: TEAMS_KEY, predicate: (query) => Array.isArray(query.state.data) },
        (teams) => teams?.filter((team) => team.id !== teamId),
      );
    },
    onError: showError,
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: TEAMS_KEY,
        predicate: (query) => !isLeftTeam(query),
      }),
  });
}

/**
 * Whether the user is leaving this team, or has just left it: its reads may answer "not found" by then
 * (the realtime 'teams.changed' can refetch them before the leave's answer arrives), which is no error.
 */
export function useIsLeavingTeam(teamId: string | null): boolean {
  return (
    useMutationState({
      filters: {
        mutationKey: leaveTeamKey(teamId ?? ""),
        predicate: (mutation) => mutation.state.status === "pending" || mutation.state.status === "success",
      },
    }).length > 0 && teamId !== null
  );
}
