/**
 * Server state of projects, keyed after the API routes: ['api', 'projects', {list, sort, q}] for
 * GET /api/projects and ['api', 'projects', id] for GET /api/projects/{id}. Every write invalidates
 * ['api', 'projects'], so lists and the open project agree.
 */
import {
  PROJECT_MESSAGES,
  type Product,
  type ProjectDetail,
  type ProjectList,
  type ProjectSort,
  type ProjectSummary,
  type ProjectType,
} from "@redline/shared";
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";

export const PROJECTS_KEY = ["api", "projects"] as const;

export interface ProjectsQuery {
  list: ProjectList;
  sort: ProjectSort;
  q: string;
  /** The active team: its projects are listed beside the user's own. */
  teamId?: string | null;
  /** The tab's product (SPEC §1): only its projects. */
  product?: Product;
}

export const projectsKey = (query: ProjectsQuery) => [...PROJECTS_KEY, query] as const;
export const projectKey = (projectId: string) => [...PROJECTS_KEY, projectId] as const;

export function useProjects(query: ProjectsQuery) {
  return useQuery({
    queryKey: projectsKey(query),
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ list: query.list, sort: query.sort });
      if (query.q) params.set("q", query.q);
      if (query.teamId) params.set("teamId", query.teamId);
      if (query.product) params.set("product", query.product);
      return (await api<{ data: ProjectSummary[] }>(`/api/projects?${params}`, { signal })).data;
    },
    placeholderData: keepPreviousData,
  });
}

export function useProject(projectId: string) {
  return useQuery({
    queryKey: projectKey(projectId),
    queryFn: async ({ signal }) =>
      (await api<{ data: ProjectDetail }>(`/api/projects/${encodeURIComponent(projectId)}`, { signal })).data,
  });
}

/**
 * The lists of projects (not any one project's detail) go stale: read again when next shown. For a change
 * whose project detail is already in the cache, written from an answer or a realtime event.
 */
export function invalidateProjectLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    queryKey: PROJECTS_KEY,
    predicate: ({ queryKey }) => typeof queryKey[2] !== "string",
  });
}

export function useInvalidateProjects() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
}

export function useCreateProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: (input: { title: string; type: ProjectType; teamId?: string }) =>
      api<{ data: ProjectSummary; message: string }>("/api/projects", { method: "POST", body: input }),
    onSettled: invalidate,
  });
}

export function useUpdateProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({
      id,
      ...patch
    }: {
      id: string;
      title?: string;
      isArchived?: boolean;
      isPluginDisabled?: boolean;
      teamId?: string | null;
    }) =>
      api<{ data: ProjectSummary; message?: string }>(`/api/projects/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: patch,
      }),
    // Moving into or out of a team says so; renames and archiving speak for themselves.
    onSuccess: ({ message }) => {
      if (message) snackbar.success(message);
    },
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: invalidate,
  });
}

export function useDeleteProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`/api/projects/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: ({ message }) => snackbar.success(message || PROJECT_MESSAGES.deleted),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: invalidate,
  });
}

export function useSetProjectThumbnail() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, dataUrl }: { id: string; dataUrl: string }) =>
      api<{ data: { thumbnail: string }; message: string }>(
        `/api/projects/${encodeURIComponent(id)}/thumbnail`,
        { method: "POST", body: { dataUrl } },
      ),
    onSuccess: ({ message }) => snackbar.success(message || PROJECT_MESSAGES.thumbnailUpdated),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: invalidate,
  });
}
