/**
 * A project's integrations through the API (/api/projects/{id}/integrations…). Keys
 * ['integrations', id] and […, 'webhook', 'deliveries']; a write puts or invalidates what it changed. Kept
 * outside the project's ['api', 'projects', id] keys, which every live comment, edit and page change
 * invalidates: nothing a reviewer does changes a project's integrations.
 */
import type {
  IntegrationType,
  ProjectIntegrations,
  SlackChannelOption,
  WebhookConfigInput,
  WebhookDelivery,
  WebhookSaved,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const integrationsKey = (projectId: string) => ["integrations", projectId] as const;
export const deliveriesKey = (projectId: string) =>
  [...integrationsKey(projectId), "webhook", "deliveries"] as const;
const base = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/integrations`;

export function useProjectIntegrations(projectId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: integrationsKey(projectId),
    enabled,
    retry: false,
    queryFn: async ({ signal }) =>
      (await api<{ data: ProjectIntegrations }>(base(projectId), { signal })).data,
  });
}

/** The delivery log, re-read every few seconds while it shows (attempts happen in the background). */
export function useWebhookDeliveries(projectId: string) {
  return useQuery({
    queryKey: deliveriesKey(projectId),
    refetchInterval: 3000,
    queryFn: async ({ signal }) =>
      (await api<{ data: WebhookDelivery[] }>(`${base(projectId)}/webhook/deliveries`, { signal })).data,
  });
}

export function useSaveWebhook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: WebhookConfigInput) =>
      api<WebhookSaved>(`${base(projectId)}/webhook`, { method: "PUT", body: config }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKey(projectId) }),
  });
}

export function useRotateWebhookSecret(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<WebhookSaved>(`${base(projectId)}/webhook/secret`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKey(projectId) }),
  });
}

export function useToggleIntegration(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, isEnabled }: { type: IntegrationType; isEnabled: boolean }) =>
      api<{ message: string }>(`${base(projectId)}/${type}`, { method: "PATCH", body: { isEnabled } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKey(projectId) }),
  });
}

export function useDisconnectIntegration(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: IntegrationType) =>
      api<{ message: string }>(`${base(projectId)}/${type}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKey(projectId) }),
  });
}

export function useReplayDelivery(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api<{ message: string }>(
        `${base(projectId)}/webhook/deliveries/${encodeURIComponent(deliveryId)}/replay`,
        { method: "POST" },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(projectId) }),
  });
}

export const slackChannelsKey = (projectId: string) =>
  [...integrationsKey(projectId), "slack", "channels"] as const;

/** Slack's install link (OAuth v2): the browser goes there and comes back to /integration/slack/{id}. */
export function useConnectSlack(projectId: string) {
  return useMutation({
    mutationFn: async () =>
      (await api<{ data: { url: string } }>(`${base(projectId)}/slack/connect`, { method: "POST" })).data.url,
  });
}

export function useSlackChannels(projectId: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: slackChannelsKey(projectId),
    enabled,
    retry: false,
    queryFn: async ({ signal }) =>
      (await api<{ data: SlackChannelOption[] }>(`${base(projectId)}/slack/channels`, { signal })).data,
  });
}

export function useChooseSlackChannel(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelId: string) =>
      api<{ message: string }>(`${base(projectId)}/slack`, { method: "PUT", body: { channelId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKey(projectId) }),
  });
}
