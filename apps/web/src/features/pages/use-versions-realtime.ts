/**
 * Captures report their progress through the project's room (`versions.changed`, carrying the version
 * and its page as the API presents them): every step goes straight into the cache — the version, and the
 * page (title, thumbnail, versions) in the cached project — so the project page, the add-page progress
 * and the viewer follow a capture with no request while it runs, nor when it ends. A read that was under
 * way when an event came is sent again (its answer may predate the event). A (re)join refetches, as
 * events sent while away are not replayed.
 */
import type { Page, ProjectDetail, Version } from "@redline/shared";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refetchFresh, restartReads } from "../../lib/fresh-reads.ts";
import { realtime } from "../../lib/realtime.ts";
import { projectKey } from "../projects/project-queries.ts";
import { versionKey } from "./page-queries.ts";

export function useVersionsRealtime(projectId: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || !projectId) return;
    return realtime().subscribe(projectId, {
      onEvent(event) {
        if (event.type !== "versions.changed") return;
        applyVersion(queryClient, projectId, event.version, event.page);
        void restartReads(queryClient, { queryKey: projectKey(projectId), exact: true });
        void restartReads(queryClient, { queryKey: versionKey(event.version.id) });
      },
      onResync() {
        void refetchFresh(queryClient, { queryKey: projectKey(projectId) });
      },
    });
  }, [projectId, enabled, queryClient]);
}

/**
 * Writes a version as it now reads into its own cache entry and into the cached project; with its page
 * (as the project lists it), the page's title, thumbnail and versions too — a page the project does not
 * list yet is added at its place.
 */
export function applyVersion(
  queryClient: QueryClient,
  projectId: string,
  version: Version,
  page?: Page,
): void {
  queryClient.setQueryData(versionKey(version.id), version);
  queryClient.setQueryData<ProjectDetail>(projectKey(projectId), (project) => {
    if (!project) return project;
    if (page && !project.pages.some((item) => item.id === page.id)) return withPage(project, page);
    return {
      ...project,
      pages: project.pages.map((item) =>
        item.id !== version.pageId
          ? item
          : page
            ? { ...page, versions: mergeVersion(page.versions, version) }
            : { ...item, versions: mergeVersion(item.versions, version) },
      ),
    };
  });
}

/** The project listing `page` at its place, unless it lists it already. */
export function withPage(project: ProjectDetail, page: Page): ProjectDetail {
  if (project.pages.some((item) => item.id === page.id)) return project;
  return { ...project, pages: [...project.pages, page].sort((a, b) => a.sortOrder - b.sortOrder) };
}

const mergeVersion = (versions: Version[], version: Version) =>
  versions.map((item) => (item.id === version.id ? version : item));
