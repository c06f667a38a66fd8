/**
 * The unsaved-changes dialog (SPEC §2, §4): leaving the review view (another mode, version or page)
 * with edits not saved asks to save and exit, exit without saving, or stay. Leaving the tab asks the
 * browser's own question (`beforeunload`). Switching device or opening the activity stays in place.
 */
import { useEffect, useRef, useState } from "react";
import { useBlocker } from "react-router";
import { Modal } from "../../components/modal.tsx";
import { setLeaveGuard } from "../session/leave-guard.ts";

export function UnsavedChangesGuard({
  count,
  isSaving,
  onSave,
  onDiscard,
}: {
  count: number;
  isSaving: boolean;
  /** Resolves true once saved. */
  onSave(): Promise<boolean>;
  onDiscard(): void;
}) {
  const hasUnsaved = count > 0;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => hasUnsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  const stay = useRef<HTMLButtonElement>(null);
  // Signing out asks too (no route change to block): the answer resolves the pending question.
  const [asking, setAsking] = useState<((leave: boolean) => void) | null>(null);
  useEffect(() => {
    if (!hasUnsaved) return;
    return setLeaveGuard(() => new Promise<boolean>((resolve) => setAsking(() => resolve)));
  }, [hasUnsaved]);
  const answer = (leave: boolean) => {
    asking?.(leave);
    setAsking(null);
  };

  useEffect(() => {
    if (!hasUnsaved) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", handleBeforeUnload);
    return () => window.removeEventListener("beforeunload", handleBeforeUnload);
  }, [hasUnsaved]);

  const isOpen = blocker.state === "blocked" || asking !== null;
  return (
    <Modal
      open={isOpen}
      onOpenChange={(open) => {
        if (open) return;
        if (blocker.state === "blocked") blocker.reset();
        answer(false);
      }}
      title="Unsaved changes"
      // Asked before leaving, signing out or marking notifications seen: worded for all three.
      description={`You have ${count} unsaved ${count === 1 ? "change" : "changes"} on this page. Save ${
        count === 1 ? "it" : "them"
      } first?`}
      initialFocusRef={stay}
      footer={
        <>
          <button
            ref={stay}
            type="button"
            className="btn"
            onClick={() => {
              blocker.reset?.();
              answer(false);
            }}
          >
            Stay
          </button>
          <button
            type="button"
            className="btn btn--danger"
            onClick={() => {
              onDiscard();
              blocker.proceed?.();
              answer(true);
            }}
          >
            Exit without saving
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={isSaving}
            onClick={async () => {
              if (!(await onSave())) return;
              blocker.proceed?.();
              answer(true);
            }}
          >
            {isSaving ? "Saving..." : "Save and exit"}
          </button>
        </>
      }
    />
  );
}
