/** The upgrade prompt shown when a project has reached its owner's page limit (SPEC §5). */
import { Link } from "react-router";
import { Modal } from "../../components/modal.tsx";

export function pageLimitText(limit: number): string {
  return `You have reached the limit of ${limit} pages on the Free Plan`;
}

export function UpgradeModal({
  open,
  onOpenChange,
  limit,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  limit: number;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={pageLimitText(limit)}
      description="Upgrade your plan to add more pages, images and PDFs to this project."
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            Not now
          </button>
          <Link className="btn btn--primary" to="/upgrade" onClick={() => onOpenChange(false)}>
            Upgrade
          </Link>
        </>
      }
    />
  );
}
