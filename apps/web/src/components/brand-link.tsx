/**
 * Redline's name as a link (the app header, the signed-out pages, the public views): the "R" tile and
 * the word. The signed-out pages show it larger (`isLarge`); `label` names the link where the word alone
 * would not say where it goes, and `textClassName` lets a header hide the word on narrow screens.
 */
import { Link } from "react-router";
import "./brand-link.css";

export function BrandLink({
  to,
  className,
  label,
  textClassName,
  isLarge = false,
}: {
  to: string;
  className?: string;
  label?: string;
  textClassName?: string;
  isLarge?: boolean;
}) {
  return (
    <Link to={to} className={className ? `brand-link ${className}` : "brand-link"} aria-label={label}>
      <span className={isLarge ? "brand-link__mark brand-link__mark--lg" : "brand-link__mark"} aria-hidden>
        R
      </span>
      {textClassName ? <span className={textClassName}>Redline</span> : "Redline"}
    </Link>
  );
}
