/**
 * What a public link shows, read without a session: ['api', 'share', id] is GET /api/share/{id}
 * (pages already filtered by the link's settings). Joining by link is POST /api/share/{id}/join.
 */
import type { Access, Page, ProjectSharing, ProjectType } from "@redline/shared";
import { useQuery } from "@tanstack/react-query";
import { api, isApiError } from "../../lib/api.ts";

/** GET /api/share/{id} — not in packages/shared yet, so described here. */
export interface SharedProject {
  id: string;
  title: string;
  type: ProjectType;
  access: Extract<Access, "comment" | "view">;
  sharing: ProjectSharing;
  pages: Page[];
}

export const sharedProjectKey = (projectId: string) => ["api", "share", projectId] as const;

export function useSharedProject(projectId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sharedProjectKey(projectId),
    queryFn: async ({ signal }) =>
      (await api<{ data: SharedProject }>(`/api/share/${encodeURIComponent(projectId)}`, { signal })).data,
    enabled,
    // A visitor may keep the tab open while the owner adds pages or changes the settings.
    refetchInterval: 60_000,
  });
}

export function joinSharedProject(projectId: string) {
  return api<{ data: { access: Access } }>(`/api/share/${encodeURIComponent(projectId)}/join`, {
    method: "POST",
    body: {},
  });
}

/** The link is off, or the project is gone (or archived): the server answers 404. */
export function isNotAccessible(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}
