/**
 * Pages and their capture jobs. Keys follow the API routes: ['api', 'versions', id] for
 * GET /api/versions/{id}, polled while a capture runs; ['api', 'similar-pages', url] for
 * GET /api/similar-pages?url= (the similar-pages picker).
 */
import {
  type AddPageResponse,
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
import { PROJECTS_KEY, projectKey } from "../projects/project-queries.ts";

export const POLL_MS = 700;
export const versionKey = (versionId: string) => ["api", "versions", versionId] as const;

export function isCapturing(version: Pick<Version, "status"> | undefined): boolean {
  return version?.status === "queued" || version?.status === "capturing";
}

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

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Polls GET /api/versions/{id} until the capture is ready or failed, reporting every step. */
export async function waitForCapture(
  queryClient: QueryClient,
  versionId: string,
  { signal, onUpdate }: { signal?: AbortSignal; onUpdate?: (version: Version) => void } = {},
): Promise<Version> {
  let lastStatus: Version["status"] | null = null;
  for (;;) {
    const { data: version } = await api<{ data: Version }>(`/api/versions/${encodeURIComponent(versionId)}`, {
      signal,
    });
    queryClient.setQueryData(versionKey(versionId), version);
    onUpdate?.(version);
    if (version.status !== lastStatus) void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
    lastStatus = version.status;
    if (!isCapturing(version)) return version;
    await delay(POLL_MS, signal);
  }
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
