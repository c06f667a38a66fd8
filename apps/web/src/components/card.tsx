/**
 * What project and page cards share: the card surface (`.card` in base.css) and the thumbnail at the
 * top, a 500×350 picture linking to the card's target, or a placeholder with the card's icon.
 */
import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";

export function CardThumb({ to, src, icon: Icon }: { to: string; src: string | null; icon: LucideIcon }) {
  return (
    <Link to={to} className="card__thumb" tabIndex={-1} aria-hidden>
      {src ? (
        <img src={src} alt="" loading="lazy" />
      ) : (
        <span className="thumb-placeholder">
          <Icon size={28} />
        </span>
      )}
    </Link>
  );
}
