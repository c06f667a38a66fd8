import type { ONBOARDING_FLAGS, User } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { ME_KEY } from "../session/use-me.ts";

export type OnboardingFlag = (typeof ONBOARDING_FLAGS)[number];

/**
 * Marks an onboarding screen as seen, on the server (merged into the user's `onboarding` map in SQL, so
 * two tabs never undo each other). The cached user changes at once, so the screen closes without
 * waiting for the answer; the server's answer then takes its place.
 */
export function useOnboardingFlag() {
  const queryClient = useQueryClient();
  const { mutate } = useMutation({
    mutationFn: (flag: OnboardingFlag) =>
      api<{ data: User }>("/api/me", { method: "PATCH", body: { onboarding: { [flag]: true } } }),
    onMutate: (flag) => {
      queryClient.setQueryData<User>(ME_KEY, (user) =>
        user ? { ...user, onboarding: { ...user.onboarding, [flag]: true } } : user,
      );
    },
    onSuccess: ({ data }) => queryClient.setQueryData(ME_KEY, data),
  });
  return mutate;
}
