/**
 * The instance admin through its API (/api/admin/*). Keys follow the routes: ['api', 'admin', 'users', {q,
 * page}] and so on. Every write invalidates ['api', 'admin'] (lists and the audit agree at once). A 404 means
 * the reader is no operator: the page says so instead of retrying.
 */
import type {
  AdminAuditEntry,
  AdminGrantInput,
  AdminHealth,
  AdminPage,
  AdminTeam,
  AdminUsage,
  AdminUser,
} from "@redline/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { ApiError, api, isApiError } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";

export const ADMIN_KEY = ["api", "admin"] as const;

interface Answer<T> {
  data: T;
}

const retry = (failures: number, error: unknown) =>
  !(isApiError(error) && error.status === 404) && failures < 2;

/** Whether the error says the reader is not an operator (every admin route is a 404 to them). */
export const isNotAdmin = (error: unknown) => error instanceof ApiError && error.status === 404;

function useAdminRead<T>(path: string, key: readonly unknown[]) {
  return useQuery({
    queryKey: [...ADMIN_KEY, ...key],
    retry,
    // A new search or page keeps the rows shown until its answer comes, instead of a loading flash per key.
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => (await api<Answer<T>>(path, { signal })).data,
  });
}

const searchPath = (noun: string, q: string, page: number) =>
  `/api/admin/${noun}?${new URLSearchParams({ q, page: String(page) })}`;

export const useAdminUsers = (q: string, page: number) =>
  useAdminRead<AdminPage<AdminUser>>(searchPath("users", q, page), ["users", { q, page }]);
export const useAdminTeams = (q: string, page: number) =>
  useAdminRead<AdminPage<AdminTeam>>(searchPath("teams", q, page), ["teams", { q, page }]);
export const useAdminUsage = (days: number) =>
  useAdminRead<AdminUsage>(`/api/admin/usage?days=${days}`, ["usage", { days }]);
export const useAdminHealth = () => useAdminRead<AdminHealth>("/api/admin/health", ["health"]);
export const useAdminAudit = (page: number) =>
  useAdminRead<AdminPage<AdminAuditEntry>>(`/api/admin/audit?page=${page}`, ["audit", { page }]);

function useAdminWrite<Input>(path: (input: Input) => string, body: (input: Input) => unknown, done: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => api(path(input), { method: "POST", body: body(input) }),
    onSuccess: () => snackbar.success(done),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_KEY }),
  });
}

const id = encodeURIComponent;

export const useSetUserDisabled = () =>
  useAdminWrite(
    ({ userId, disabled }: { userId: string; disabled: boolean }) =>
      `/api/admin/users/${id(userId)}/${disabled ? "disable" : "enable"}`,
    () => ({}),
    "User updated.",
  );

export const useGrantPlan = () =>
  useAdminWrite(
    ({ userId }: { userId: string; grant: AdminGrantInput }) => `/api/admin/users/${id(userId)}/grant`,
    ({ grant }) => grant,
    "Plan granted.",
  );

export const useSetTeamDisabled = () =>
  useAdminWrite(
    ({ teamId, disabled }: { teamId: string; disabled: boolean }) =>
      `/api/admin/teams/${id(teamId)}/${disabled ? "disable" : "enable"}`,
    () => ({}),
    "Team updated.",
  );
