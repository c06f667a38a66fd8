/** The upgrade prompt (SPEC §2, §5): what a plan limit refused, 'Not now', and the way to /upgrade. */
import { Link } from "react-router";
import { Modal } from "./modal.tsx";
import { closeUpgradePrompt, useUpgradePrompt } from "./upgrade-prompt-store.ts";

export function UpgradePrompt() {
  const { open, content } = useUpgradePrompt();
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) closeUpgradePrompt();
      }}
      title={content?.title ?? ""}
      description={content?.description}
      footer={
        <>
          <button type="button" className="btn" onClick={closeUpgradePrompt}>
            Not now
          </button>
          <Link className="btn btn--primary" to="/upgrade" onClick={closeUpgradePrompt}>
            Upgrade
          </Link>
        </>
      }
    />
  );
}
