/**
 * The support dialogs, rendered once by the app layout: Send Feedback and What's New (opened from the
 * header's help menu through support-store.ts) and the provide-feedback modal (SPEC §9). The two dialogs
 * load on first use (snapdom, marked and the changelog stay out of the main bundle) and stay mounted
 * after, so they close with their animation.
 */
import type { User } from "@redline/shared";
import { lazy, Suspense, useEffect, useState } from "react";
import { ProvideFeedbackModal } from "./provide-feedback-modal.tsx";
import { closeSupportDialog, type SupportDialog, useSupportDialog } from "./support-store.ts";

const FeedbackDialog = lazy(() =>
  import("./feedback-dialog.tsx").then((module) => ({ default: module.FeedbackDialog })),
);
const WhatsNewDialog = lazy(() =>
  import("./whats-new-dialog.tsx").then((module) => ({ default: module.WhatsNewDialog })),
);

export function SupportDialogs({ user }: { user: User }) {
  const dialog = useSupportDialog();
  const [used, setUsed] = useState<ReadonlySet<SupportDialog>>(new Set());
  useEffect(() => {
    if (dialog && !used.has(dialog)) setUsed(new Set([...used, dialog]));
  }, [dialog, used]);
  const handleOpenChange = (open: boolean) => {
    if (!open) closeSupportDialog();
  };
  return (
    <>
      <Suspense fallback={null}>
        {used.has("feedback") || dialog === "feedback" ? (
          <FeedbackDialog open={dialog === "feedback"} onOpenChange={handleOpenChange} />
        ) : null}
        {used.has("whats-new") || dialog === "whats-new" ? (
          <WhatsNewDialog open={dialog === "whats-new"} onOpenChange={handleOpenChange} />
        ) : null}
      </Suspense>
      <ProvideFeedbackModal user={user} />
    </>
  );
}
