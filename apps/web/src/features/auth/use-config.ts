import type { PublicConfig } from "@redline/shared";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** GET /api/config: which sign-in options this deployment offers. */
export function useConfig() {
  return useQuery({
    queryKey: ["api", "config"],
    queryFn: () => api<PublicConfig>("/api/config"),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
