/**
 * Pages and their capture jobs. Keys follow the API routes: ['api', 'versions', id] for
 * GET /api/versions/{id}, kept current by the project's realtime room while a capture runs;
 * ['api', 'similar-pages', url] for
 * GET /api/similar-pages?url= (the similar-pages picker).
 */
import {
  type AddPageResponse,
  isCapturing,
  PAGE_ARCHIVE_MESSAGES,
  type Page,
  PROJECT_MESSAGES,
  type ProjectDetail,
  type SimilarPages,
  type Version,
} from "@redline/shared";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { fileForm } from "../../lib/files.ts";
import { realtime } from "../../lib/realtime.ts";
import { PROJECTS_KEY, projectKey } from "../projects/project-queries.ts";

export const versionKey = (versionId: string) => ["api", "versions", versionId] as const;

export function addPageByUrl(
  projectId: string,
  input: { url: string; isScreenshot: boolean },
  signal?: AbortSignal,
) {
  return api<{ data: AddPageResponse; message: string }>(
    `/api/projects/${encodeURIComponent(projectId)}/pages`,
    { method: "POST", body: input, signal },
  );
}

export function uploadFile(projectId: string, file: File, signal?: AbortSignal) {
  return api<{ data: AddPageResponse }>(`/api/projects/${encodeURIComponent(projectId)}/uploads`, {
    method: "POST",
    body: fileForm(file),
    signal,
  });
}

/**
 * Resolves when the capture of a version ends (ready or failed), reporting every step. Steps arrive
 * through the project's realtime room into the cache (use-versions-realtime.ts, mounted by the project
 * layout); this only watches the cache. The version is read over HTTP only when the room is (re)joined,
 * since what happened while away is not replayed.
 */
export function waitForCapture(
  queryClient: QueryClient,
  projectId: string,
  versionId: string,
  { signal, onUpdate }: { signal?: AbortSignal; onUpdate?: (version: Version) => void } = {},
): Promise<Version> {
  return new Promise((resolve, reject) => {
    const key = versionKey(versionId);
    const cleanup = () => {
      unwatch();
      unsubscribe();
    };
    const seen = (version: Version | undefined) => {
      if (!version) return;
      onUpdate?.(version);
      if (isCapturing(version)) return;
      cleanup();
      resolve(version);
    };
    const unwatch = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "success" && sameKey(event.query.queryKey, key))
        seen(event.query.state.data as Version);
    });
    const unsubscribe = realtime().subscribe(projectId, {
      onEvent() {},
      onResync() {
        api<{ data: Version }>(`/api/versions/${encodeURIComponent(versionId)}`, { signal }).then(
          ({ data }) => queryClient.setQueryData(key, data),
          () => {},
        );
      },
    });
    signal?.addEventListener(
      "abort",
      () => {
        cleanup();
        reject(signal.reason);
      },
      { once: true },
    );
    seen(queryClient.getQueryData<Version>(key));
  });
}

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

export function useRenamePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pageId, title }: { pageId: string; title: string }) =>
      api<{ data: Page }>(`/api/pages/${encodeURIComponent(pageId)}`, { method: "PATCH", body: { title } }),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
  });
}

/** PATCH /api/pages/{id} {isArchived}: the page moves between the pages list and the archived list. */
export function useSetPageArchived() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ page, isArchived }: { page: Page; isArchived: boolean }) =>
      api<{ data: Page; message?: string }>(`/api/pages/${encodeURIComponent(page.id)}`, {
        method: "PATCH",
        body: { isArchived },
      }),
    onSuccess: ({ data, message }, { isArchived }) => {
      queryClient.setQueryData<ProjectDetail>(projectKey(data.projectId), (project) =>
        project
          ? { ...project, pages: project.pages.map((page) => (page.id === data.id ? data : page)) }
          : project,
      );
      snackbar.success(
        message || (isArchived ? PAGE_ARCHIVE_MESSAGES.archived : PAGE_ARCHIVE_MESSAGES.unarchived),
      );
    },
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
  });
}

export function useDeletePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (page: Page) =>
      api<{ message: string }>(`/api/pages/${encodeURIComponent(page.id)}`, { method: "DELETE" }),
    onSuccess: ({ message }, page) =>
      snackbar.success(
        message || (page.url === "image" ? PROJECT_MESSAGES.fileDeleted : PROJECT_MESSAGES.pageDeleted),
      ),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
  });
}

/** Same-site, page-like links of a page (the server fetches it through its SSRF guard). */
export function useSimilarPages(url: string | null) {
  return useQuery({
    queryKey: ["api", "similar-pages", url] as const,
    queryFn: async ({ signal }) =>
      (
        await api<{ data: SimilarPages }>(`/api/similar-pages?url=${encodeURIComponent(url ?? "")}`, {
          signal,
        })
      ).data,
    enabled: url !== null,
    staleTime: 5 * 60 * 1000,
    retry: false,
  });
}
