/**
 * The product-splitting intro (SPEC §2 modals, §9: 1 s after load on /projects, /team or /profile for the
 * web product, once): website feedback and bug tracking are two products now, each with its own
 * projects, teams and plans, and the header's switcher moves between them.
 */
import { Modal } from "../../components/modal.tsx";
import "./onboarding.css";

export function ProductSplittingIntro({ onClose }: { onClose(): void }) {
  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Two products, one account"
      footer={
        <button type="button" className="btn btn--primary" onClick={onClose}>
          Got it
        </button>
      }
    >
      <svg className="tour__art" viewBox="0 0 320 120" role="presentation" aria-hidden focusable="false">
        <rect x="0" y="0" width="320" height="120" rx="12" className="tour__art-bg" />
        <rect x="28" y="24" width="116" height="72" rx="8" className="tour__art-card--active" />
        <circle cx="56" cy="52" r="9" className="tour__art-accent" />
        <rect x="72" y="48" width="56" height="8" rx="4" className="tour__art-line" />
        <rect x="44" y="72" width="84" height="8" rx="4" className="tour__art-line--muted" />
        <rect x="176" y="24" width="116" height="72" rx="8" className="tour__art-card" />
        {[0, 1, 2].map((column) => (
          <rect
            key={column}
            x={188 + column * 34}
            y="38"
            width="26"
            height={44 - column * 10}
            rx="4"
            className="tour__art-line--muted"
          />
        ))}
      </svg>
      <div className="onboarding__text">
        <p>
          <strong>Website feedback</strong> is where you are: review web pages, images and PDFs with pinned
          comments and suggested edits.
        </p>
        <p>
          <strong>Bug tracking</strong> keeps tickets on a board, reported by your team or by visitors through
          the widget. Each product has its own projects, teams and plans.
        </p>
        <p>Switch between them from the product menu next to the logo in the header.</p>
      </div>
    </Modal>
  );
}
