/**
 * The provide-feedback modal (SPEC §2 modal list, §9 timing and conditions): asked once, after a while
 * with Redline. 'Send Feedback' opens the feedback dialog; either answer means it is never asked again.
 */
import type { User } from "@redline/shared";
import { Modal } from "../../components/modal.tsx";
import { useProvideFeedback } from "./provide-feedback.ts";
import { openSupportDialog } from "./support-store.ts";

export function ProvideFeedbackModal({ user }: { user: User }) {
  const { isOffered, answer } = useProvideFeedback(user);
  return (
    <Modal
      open={isOffered}
      onOpenChange={(open) => {
        if (!open) answer();
      }}
      title="How is Redline working for you?"
      description="You have been reviewing several projects with Redline. Tell us what works, what doesn't and what you miss — it takes a minute and shapes what we build next."
      footer={
        <>
          <button type="button" className="btn" onClick={answer}>
            Not now
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => {
              answer();
              openSupportDialog("feedback");
            }}
          >
            Send Feedback
          </button>
        </>
      }
    />
  );
}
