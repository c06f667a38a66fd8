/** The signed-in user (GET /api/me). `null` means signed out; the query never errors on 401. */
import type { User } from "@redline/shared";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { ApiError, api } from "../../lib/api.ts";

export const ME_KEY = ["api", "me"] as const;

export async function fetchMe(): Promise<User | null> {
  try {
    const { data } = await api<{ data: User }>("/api/me");
    return data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe });
}

/** Re-reads the user after a sign-in, verification or sign-out and returns it. */
export function refreshMe(queryClient: QueryClient): Promise<User | null> {
  return queryClient.fetchQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 0 });
}
