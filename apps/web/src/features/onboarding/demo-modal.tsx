/**
 * The demo modal (SPEC §2 modals): once, on the project list of a user who has no project yet, an
 * invitation to look around the demo project (`/share/demo`, SPEC §2) before making their own.
 */
import { DEMO_PROJECT_PATH } from "@redline/shared";
import { Link } from "react-router";
import { Modal } from "../../components/modal.tsx";
import "./onboarding.css";

export function DemoModal({ onClose }: { onClose(): void }) {
  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="See a review in progress"
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            Not now
          </button>
          <Link to={DEMO_PROJECT_PATH} className="btn btn--primary" onClick={onClose}>
            Open the demo project
          </Link>
        </>
      }
    >
      <div className="onboarding__text">
        <p>
          The demo project is a small sample site with comments already pinned to it. Open it to see how pins,
          threads and versions look before you add a page of your own.
        </p>
      </div>
    </Modal>
  );
}
