/**
 * A team's branding through the API: PATCH /api/teams/{id}/branding (switch, colours), POST and DELETE
 * /api/teams/{id}/branding/{logo|icon}. Uploads go through XMLHttpRequest, the one browser API that
 * reports upload progress. Every write invalidates ['api', 'teams'] (the team pages and the active
 * team's branding follow); a plan refusal (402) opens the upgrade prompt.
 */
import { type BrandingAsset, SNACKBAR_MS, type Team, type TeamBrandingUpdate } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { ApiError, api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { fileForm } from "../../lib/files.ts";
import { TEAMS_KEY } from "./team-queries.ts";

interface Answer {
  data: Team;
  message: string;
}

const brandingPath = (teamId: string, asset?: BrandingAsset) =>
  `/api/teams/${encodeURIComponent(teamId)}/branding${asset ? `/${asset}` : ""}`;

/** Sends one file as multipart/form-data, telling progress (0–1) as it goes; errors as `ApiError`. */
export function uploadWithProgress<T>(
  path: string,
  file: File,
  onProgress: (done: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", path);
    request.withCredentials = true;
    request.setRequestHeader("accept", "application/json");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: { code?: string; message?: string } | undefined;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else
        reject(
          new ApiError(
            request.status,
            body?.code ?? `http-${request.status}`,
            body?.message ?? request.statusText ?? "Something went wrong",
          ),
        );
    };
    request.onerror = () =>
      reject(new ApiError(0, "network", "Could not reach the server. Check your connection and try again."));
    request.send(fileForm(file));
  });
}

function useBrandingMutation<Input>(send: (input: Input) => Promise<Answer>, { toastErrors = true } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: ({ message }) => snackbar.success(message, SNACKBAR_MS.team),
    // A plan refusal opens the upgrade prompt; other errors are the server's message.
    onError: (error) => {
      if (!showPlanRefusal(error) && toastErrors) snackbar.error(errorMessage(error), SNACKBAR_MS.team);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEAMS_KEY }),
  });
}

export function useUpdateBranding(teamId: string) {
  return useBrandingMutation((update: TeamBrandingUpdate) =>
    api<Answer>(brandingPath(teamId), { method: "PATCH", body: update }),
  );
}

/** Errors stay beside the picture (the panel shows them); progress goes to `onProgress`. */
export function useUploadBrandingAsset(teamId: string, asset: BrandingAsset) {
  return useBrandingMutation(
    ({ file, onProgress }: { file: File; onProgress: (done: number) => void }) =>
      uploadWithProgress<Answer>(brandingPath(teamId, asset), file, onProgress),
    { toastErrors: false },
  );
}

export function useRemoveBrandingAsset(teamId: string, asset: BrandingAsset) {
  return useBrandingMutation(() => api<Answer>(brandingPath(teamId, asset), { method: "DELETE" }));
}
