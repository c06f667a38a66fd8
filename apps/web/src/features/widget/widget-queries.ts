/**
 * A bug-tracking project's widget settings through the API (GET/PUT /api/projects/{id}/widget). Key
 * ['api', 'projects', id, 'widget']; a save puts its answer in the cache at once.
 */
import type { WidgetSettings } from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const widgetKey = (projectId: string) => ["api", "projects", projectId, "widget"] as const;
const widgetPath = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/widget`;

export function useWidgetSettings(projectId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: widgetKey(projectId),
    enabled,
    queryFn: async ({ signal }) =>
      (await api<{ data: WidgetSettings }>(widgetPath(projectId), { signal })).data,
  });
}

export function useSaveAllowedOrigins(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (allowedOrigins: string[]) =>
      (
        await api<{ data: WidgetSettings }>(widgetPath(projectId), {
          method: "PUT",
          body: { allowedOrigins },
        })
      ).data,
    onSuccess: (settings) => queryClient.setQueryData(widgetKey(projectId), settings),
  });
}
