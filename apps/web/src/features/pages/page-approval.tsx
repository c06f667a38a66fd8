/**
 * Page approval (SPEC §4): editors and the project's approvers toggle it ('This page is marked as
 * approved / not approved'); everyone else sees an 'Approved' badge.
 */
import { type Page, type ProjectDetail, SHARING_MESSAGES } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Check, CircleCheck } from "lucide-react";
import { ApprovedBadge, approvedTitle } from "../../components/approved-badge.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { PROJECTS_KEY, projectKey } from "../projects/project-queries.ts";

export function useSetPageApproval(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pageId, approved }: { pageId: string; approved: boolean }) =>
      api<{ data: Page; message: string }>(`/api/pages/${encodeURIComponent(pageId)}/approval`, {
        method: "PUT",
        body: { approved },
      }),
    onSuccess: ({ data, message }, { approved }) => {
      queryClient.setQueryData<ProjectDetail>(projectKey(projectId), (project) =>
        project
          ? { ...project, pages: project.pages.map((page) => (page.id === data.id ? data : page)) }
          : project,
      );
      snackbar.success(message || (approved ? SHARING_MESSAGES.approved : SHARING_MESSAGES.unapproved));
    },
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
  });
}

/** The review bar's control: a toggle button for approvers, else the badge. */
export function PageApproval({ project, page }: { project: ProjectDetail; page: Page }) {
  const approval = useSetPageApproval(project.id);
  if (!project.abilities.approvePages) return <ApprovedBadge page={page} />;
  const isApproved = approval.isPending ? approval.variables.approved : Boolean(page.isApproved);
  return (
    <button
      type="button"
      className={isApproved ? "btn approve-btn approve-btn--on" : "btn approve-btn"}
      aria-pressed={isApproved}
      title={approvedTitle(page)}
      disabled={approval.isPending}
      onClick={() => approval.mutate({ pageId: page.id, approved: !isApproved })}
    >
      {isApproved ? <CircleCheck size={16} aria-hidden /> : <Check size={16} aria-hidden />}
      {isApproved ? "Approved" : "Approve page"}
    </button>
  );
}
