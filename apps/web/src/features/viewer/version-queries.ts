/**
 * Versions in the viewer. ['api', 'versions', id, 'view'] is GET /api/versions/{id}/view (signed
 * content URLs, kept for an hour so the frame does not reload on every window focus);
 * ['api', 'versions', id] is GET /api/versions/{id}, kept current by realtime events while a capture runs.
 */
import {
  isCapturing,
  PROJECT_MESSAGES,
  type ProjectDetail,
  type Version,
  type VersionView,
} from "@redline/shared";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { fileForm } from "../../lib/files.ts";
import { versionKey } from "../pages/page-queries.ts";

const SHARED_POLL_MS = 1400;

import { invalidateProjectLists, PROJECTS_KEY } from "../projects/project-queries.ts";

export const viewKey = (versionId: string) => [...versionKey(versionId), "view"] as const;
const versionPath = (versionId: string) => `/api/versions/${encodeURIComponent(versionId)}`;

/** GET /api/share/{project}/versions/{id}/view: the same, for a visitor of the public link. */
export const sharedViewKey = (projectId: string, versionId: string) =>
  ["api", "share", projectId, "versions", versionId, "view"] as const;

/**
 * The version's view, refreshed once its capture finishes. With `shareProjectId` it is read through
 * the public link; a visitor cannot poll the version itself, so the view is re-read while it captures.
 */
export function useVersionView(versionId: string, shareProjectId?: string, enabled = true) {
  const queryClient = useQueryClient();
  const isShared = shareProjectId !== undefined;
  const view = useQuery({
    queryKey: isShared ? sharedViewKey(shareProjectId, versionId) : viewKey(versionId),
    queryFn: async ({ signal }) =>
      (
        await api<{ data: VersionView }>(
          isShared
            ? `/api/share/${encodeURIComponent(shareProjectId)}/versions/${encodeURIComponent(versionId)}/view`
            : `${versionPath(versionId)}/view`,
          { signal },
        )
      ).data,
    staleTime: 60 * 60 * 1000,
    refetchOnWindowFocus: false,
    enabled,
    // A visitor of the public link has no realtime socket: the view is re-read while it captures.
    refetchInterval: (query) => (isShared && isCapturing(query.state.data?.version) ? SHARED_POLL_MS : false),
  });
  const isPending = !isShared && isCapturing(view.data?.version);
  const status = useQuery({
    queryKey: versionKey(versionId),
    queryFn: async ({ signal }) => (await api<{ data: Version }>(versionPath(versionId), { signal })).data,
    // Taken from the cached project when it holds the version, else read once; the project's realtime
    // room keeps it current (use-versions-realtime.ts).
    enabled: enabled && isPending,
    initialData: () => cachedVersion(queryClient, versionId),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const live = status.data;
  const viewStatus = view.data?.version.status;
  const { refetch } = view;
  useEffect(() => {
    if (!live || !viewStatus || live.status === viewStatus || isCapturing(live)) return;
    void refetch();
    // The cached project already holds the finished page (its events carry it): only the lists go stale.
    void invalidateProjectLists(queryClient);
  }, [live, viewStatus, refetch, queryClient]);
  // While capturing, the polled version carries the newest stage.
  return { ...view, live: isPending && live ? live : view.data?.version };
}

/** The version as a cached project holds it (the project page loads every page's versions). */
function cachedVersion(queryClient: QueryClient, versionId: string): Version | undefined {
  for (const [, data] of queryClient.getQueriesData<ProjectDetail>({ queryKey: PROJECTS_KEY })) {
    if (!Array.isArray(data?.pages)) continue;
    for (const page of data.pages) {
      const version = page.versions.find((item) => item.id === versionId);
      if (version) return version;
    }
  }
  return undefined;
}

function useInvalidateAfterVersionChange() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
}

/** A new version of a URL page (a fresh capture) — POST /api/pages/{id}/versions with {}. */
export function useRecapture() {
  const invalidate = useInvalidateAfterVersionChange();
  return useMutation({
    /** A page id, or the page and whether its unresolved comments come along (SPEC §4). */
    mutationFn: (input: string | { pageId: string; copyUnresolvedComments: boolean }) => {
      const { pageId, copyUnresolvedComments = false } =
        typeof input === "string" ? { pageId: input } : input;
      return api<{ data: Version; message: string }>(`/api/pages/${encodeURIComponent(pageId)}/versions`, {
        method: "POST",
        body: { copyUnresolvedComments },
      });
    },
    onSuccess: ({ message }) => snackbar.info(message || PROJECT_MESSAGES.fetchingPage),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: invalidate,
  });
}

/** A new image version of an image page — the same route with a multipart file. */
export function useUploadVersion() {
  const invalidate = useInvalidateAfterVersionChange();
  return useMutation({
    mutationFn: ({ pageId, file }: { pageId: string; file: File }) =>
      api<{ data: Version }>(`/api/pages/${encodeURIComponent(pageId)}/versions`, {
        method: "POST",
        body: fileForm(file),
      }),
    // The owner's full storage (402) shows the upgrade prompt.
    onError: (error) => {
      if (!showPlanRefusal(error)) snackbar.error(errorMessage(error));
    },
    onSettled: invalidate,
  });
}

export function useRenameVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ versionId, title }: { versionId: string; title: string }) =>
      api<{ data: Version }>(versionPath(versionId), { method: "PATCH", body: { title } }),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: (_data, _error, { versionId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
        queryClient.invalidateQueries({ queryKey: viewKey(versionId) }),
      ]),
  });
}

export function useDeleteVersion() {
  const invalidate = useInvalidateAfterVersionChange();
  return useMutation({
    mutationFn: (versionId: string) =>
      api<{ data: { projectId: string; pageId: string } }>(versionPath(versionId), { method: "DELETE" }),
    onSuccess: () => snackbar.success("Version deleted."),
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: invalidate,
  });
}
