/**
 * A version's suggested edits. Keys follow the API routes: ['api', 'versions', id, 'changes'] is
 * GET /api/versions/{id}/changes. Every write answers with what changed and the list is refetched;
 * others see it through the realtime socket (use-inspect-realtime.ts).
 */
import type { InspectChange, InspectChangeInput } from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { fileForm } from "../../lib/files.ts";
import { PROJECTS_KEY } from "../projects/project-queries.ts";

const enc = encodeURIComponent;
export const changesKey = (versionId: string) => ["api", "versions", versionId, "changes"] as const;
export const changesCssUrl = (versionId: string) => `/api/versions/${enc(versionId)}/changes.css`;

export function useChanges(versionId: string, enabled = true) {
  return useQuery({
    queryKey: changesKey(versionId),
    queryFn: async ({ signal }) =>
      (await api<{ data: InspectChange[] }>(`/api/versions/${enc(versionId)}/changes`, { signal })).data,
    enabled,
  });
}

function useChangesWrite<Input, Result>(versionId: string, write: (input: Input) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    // Replacement images past the owner's storage (402) show the upgrade prompt.
    onError: (error) => {
      if (!showPlanRefusal(error)) snackbar.error(errorMessage(error));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: changesKey(versionId) });
      // Versions carry their number of suggestions.
      void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
    },
  });
}

export function useSaveChanges(versionId: string) {
  const queryClient = useQueryClient();
  return useChangesWrite(versionId, async (changes: InspectChangeInput[]) => {
    const result = await api<{ data: InspectChange[]; message: string }>(
      `/api/versions/${enc(versionId)}/changes`,
      { method: "POST", body: { changes } },
    );
    queryClient.setQueryData(changesKey(versionId), result.data);
    snackbar.success(result.message);
    return result.data;
  });
}

export function useUpdateChange(versionId: string) {
  const queryClient = useQueryClient();
  return useChangesWrite(
    versionId,
    async ({ changeId, ...patch }: { changeId: string; isHidden?: boolean; isResolved?: boolean }) => {
      const { data } = await api<{ data: InspectChange }>(`/api/changes/${enc(changeId)}`, {
        method: "PATCH",
        body: patch,
      });
      queryClient.setQueryData<InspectChange[]>(changesKey(versionId), (list) =>
        list?.map((entry) => (entry.id === data.id ? data : entry)),
      );
      return data;
    },
  );
}

export function useDeleteChanges(versionId: string) {
  const queryClient = useQueryClient();
  return useChangesWrite(versionId, async (ids: string[]) => {
    const result = await api<{ message: string }>(`/api/versions/${enc(versionId)}/changes`, {
      method: "DELETE",
      body: { ids },
    });
    queryClient.setQueryData<InspectChange[]>(changesKey(versionId), (list) =>
      list?.filter((entry) => !ids.includes(entry.id)),
    );
    snackbar.success(result.message);
  });
}

/** A replacement image, stored on the content origin where the snapshot may show it. */
export async function uploadChangeImage(
  versionId: string,
  file: File,
): Promise<{ path: string; imageDimensions: { width: number; height: number } }> {
  const { data } = await api<{ data: { path: string; imageDimensions: { width: number; height: number } } }>(
    `/api/versions/${enc(versionId)}/changes/images`,
    { method: "POST", body: fileForm(file) },
  );
  return data;
}
