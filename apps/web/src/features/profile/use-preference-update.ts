import { type ProfileUpdate, SNACKBAR_MS, type User } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { ME_KEY } from "../session/use-me.ts";

const MUTATION_KEY = ["api", "me", "preferences"] as const;

function merge(user: User, update: ProfileUpdate): User {
  return {
    ...user,
    ...(update.notificationSound !== undefined && { notificationSound: update.notificationSound }),
    emailPreferences: { ...user.emailPreferences, ...update.emailPreferences },
  };
}

/**
 * Toggles save at once (PATCH /api/me) and show the new state immediately; a failure puts the
 * previous state back. The server's answer is applied only when no other toggle is still in flight,
 * so quick successive toggles never flicker.
 */
export function usePreferenceUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: MUTATION_KEY,
    mutationFn: (update: ProfileUpdate) =>
      api<{ data: User; message: string }>("/api/me", { method: "PATCH", body: update }),
    onMutate: async (update) => {
      await queryClient.cancelQueries({ queryKey: ME_KEY });
      const previous = queryClient.getQueryData<User | null>(ME_KEY);
      if (previous) queryClient.setQueryData(ME_KEY, merge(previous, update));
      return { previous };
    },
    onError: (error, _update, context) => {
      if (context?.previous) queryClient.setQueryData(ME_KEY, context.previous);
      snackbar.error(errorMessage(error));
    },
    onSuccess: ({ data, message }) => {
      if (queryClient.isMutating({ mutationKey: MUTATION_KEY }) <= 1) queryClient.setQueryData(ME_KEY, data);
      snackbar.success(message, SNACKBAR_MS.successFlash);
    },
  });
}
