/**
 * A project's task trackers through the API (/api/projects/{id}/integrations/{tracker}…, and the return
 * route's /api/integrations/{tracker}/connect). Cards: ['api', 'projects', id, 'integrations', 'cards'].
 */
import type {
  CardSubject,
  ProjectIntegration,
  TrackerCard,
  TrackerContainer,
  TrackerSettingsInput,
  TrackerType,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { integrationsKey } from "./integrations-queries.ts";

const base = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/integrations`;
export const trackerCardsKey = (projectId: string) => [...integrationsKey(projectId), "cards"] as const;

/** The cards made from the project's comments, edits and tickets (their links show to every member). */
export function useTrackerCards(projectId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: trackerCardsKey(projectId),
    enabled,
    retry: false,
    queryFn: async ({ signal }) =>
      (await api<{ data: TrackerCard[] }>(`${base(projectId)}/cards`, { signal })).data,
  });
}

export function useTrackerDestinations(projectId: string, tracker: TrackerType, enabled: boolean) {
  return useQuery({
    queryKey: [...integrationsKey(projectId), tracker, "destinations"],
    enabled,
    retry: false,
    queryFn: async ({ signal }) =>
      (await api<{ data: TrackerContainer[] }>(`${base(projectId)}/${tracker}/destinations`, { signal }))
        .data,
  });
}

/** Asks for the tracker's authorize URL (with a signed state) and sends the browser there. */
export function useStartTrackerConnect(projectId: string, tracker: TrackerType) {
  return useMutation({
    mutationFn: async () =>
      (await api<{ data: { url: string } }>(`${base(projectId)}/${tracker}/authorize`)).data.url,
    onSuccess: (url) => window.location.assign(url),
  });
}

/** The return route's hand-over: the token (Trello) or code (ClickUp) and the state. */
export function useFinishTrackerConnect(tracker: TrackerType) {
  return useMutation({
    mutationFn: (body: { state: string; token?: string; code?: string }) =>
      api<{ message: string; projectId: string; data: ProjectIntegration }>(
        `/api/integrations/${tracker}/connect`,
        { method: "POST", body },
      ),
  });
}

export function useSaveTracker(projectId: string, tracker: TrackerType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: TrackerSettingsInput) =>
      api<{ message: string; data: ProjectIntegration }>(`${base(projectId)}/${tracker}`, {
        method: "PUT",
        body: settings,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKey(projectId), exact: true }),
  });
}

export function useCreateTrackerCard(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tracker, subject, id }: { tracker: TrackerType; subject: CardSubject; id: string }) =>
      api<{ message: string; data: TrackerCard }>(`${base(projectId)}/${tracker}/cards`, {
        method: "POST",
        body: { subject, id },
      }),
    // A failed attempt may still be made later (retried): re-read either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: trackerCardsKey(projectId) }),
  });
}

export function useDeleteTrackerCard(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: TrackerCard) =>
      api<{ message: string }>(`${base(projectId)}/${card.tracker}/cards/${encodeURIComponent(card.id)}`, {
        method: "DELETE",
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: trackerCardsKey(projectId) }),
  });
}

/** GitHub's merge gate on or off; the switch then shows what the server answers (the list is re-read). */
export function useSetMergeGate(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isEnabled: boolean) =>
      api<{ message: string; data: ProjectIntegration }>(`${base(projectId)}/github/gate`, {
        method: "PATCH",
        body: { isEnabled },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsKey(projectId), exact: true }),
  });
}
