/**
 * Captures report their progress through the project's room (`versions.changed`, carrying the version
 * as the API presents it): every step goes straight into the cache — the version, and the version in
 * the cached project — so the project page, the add-page progress and the viewer follow a capture with
 * no request while it runs. When it ends, the project is read once more (its page's title and
 * thumbnail changed too). A (re)join refetches, as events sent while away are not replayed.
 */
import type { ProjectDetail, Version } from "@redline/shared";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refetchFresh, restartReads } from "../../lib/fresh-reads.ts";
import { realtime } from "../../lib/realtime.ts";
import { projectKey } from "../projects/project-queries.ts";
import { isCapturing, versionKey } from "./page-queries.ts";

export function useVersionsRealtime(projectId: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || !projectId) return;
    return realtime().subscribe(projectId, {
      onEvent(event) {
        if (event.type !== "versions.changed") return;
        applyVersion(queryClient, projectId, event.version);
        if (!isCapturing(event.version)) void refetchFresh(queryClient, { queryKey: projectKey(projectId) });
        else void restartReads(queryClient, { queryKey: projectKey(projectId), exact: true });
        void restartReads(queryClient, { queryKey: versionKey(event.version.id) });
      },
      onResync() {
        void refetchFresh(queryClient, { queryKey: projectKey(projectId) });
      },
    });
  }, [projectId, enabled, queryClient]);
}

/** Writes a version as it now reads into its own cache entry and into the cached project. */
export function applyVersion(queryClient: QueryClient, projectId: string, version: Version): void {
  queryClient.setQueryData(versionKey(version.id), version);
  queryClient.setQueryData<ProjectDetail>(projectKey(projectId), (project) =>
    project
      ? {
          ...project,
          pages: project.pages.map((page) =>
            page.id === version.pageId
              ? { ...page, versions: page.versions.map((item) => (item.id === version.id ? version : item)) }
              : page,
          ),
        }
      : project,
  );
}
