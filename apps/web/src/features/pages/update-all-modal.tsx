/**
 * 'Update all pages to latest version' (SPEC §2 modal, §4): a fresh capture of every page that can be
 * updated — not approved, archived, demo or extension pages, nor image pages without a screenshot
 * source — optionally bringing their unresolved comments along. The server decides which pages.
 */
import { COMMENT_MESSAGES, SNACKBAR_MS } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { useId, useState } from "react";
import { Modal } from "../../components/modal.tsx";
import { PendingButton } from "../../components/pending-button.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { PROJECTS_KEY } from "../projects/project-queries.ts";

export function UpdateAllPagesButton({ projectId }: { projectId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [copyComments, setCopyComments] = useState(true);
  const update = useMutation({
    mutationFn: () =>
      api<{ data: { updated: number }; message?: string }>(
        `/api/projects/${encodeURIComponent(projectId)}/update-all`,
        { method: "POST", body: { copyUnresolvedComments: copyComments } },
      ),
    onSuccess: ({ data, message }) => {
      setOpen(false);
      if (data.updated === 0)
        snackbar.warning(message ?? COMMENT_MESSAGES.noPagesToUpdate, SNACKBAR_MS.default);
      else snackbar.info(data.updated === 1 ? "Updating 1 page..." : `Updating ${data.updated} pages...`);
    },
    onError: (error) => snackbar.error(errorMessage(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY }),
  });

  return (
    <>
      <button type="button" className="btn btn--ghost btn--block" onClick={() => setOpen(true)}>
        <RefreshCw size={16} aria-hidden /> Update all pages
      </button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        title="Update all pages to latest version"
        description="Every page is captured again as a new version. Approved, archived and demo pages, pages added with the extension, and uploaded images keep their current version."
        footer={
          <>
            <button type="button" className="btn btn--ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <PendingButton
              className="btn btn--primary"
              isPending={update.isPending}
              pendingLabel="Updating..."
              onClick={() => update.mutate()}
            >
              Update all pages
            </PendingButton>
          </>
        }
      >
        <label className="checkbox" htmlFor={`${id}-copy`}>
          <input
            id={`${id}-copy`}
            type="checkbox"
            checked={copyComments}
            onChange={(event) => setCopyComments(event.target.checked)}
          />
          Copy unresolved comments to the new versions
        </label>
      </Modal>
    </>
  );
}
