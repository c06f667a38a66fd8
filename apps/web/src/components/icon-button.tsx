/**
 * A button that shows only an icon: `label` is its accessible name (and what a pointer's tooltip says
 * unless `title` says more), `icon` is drawn at `iconSize` and hidden from assistive technology.
 */
import type { LucideIcon } from "lucide-react";
import type { ComponentPropsWithRef } from "react";

export function IconButton({
  label,
  icon: Icon,
  iconSize = 16,
  className,
  ...button
}: Omit<ComponentPropsWithRef<"button">, "type" | "children" | "aria-label"> & {
  label: string;
  icon: LucideIcon;
  iconSize?: number;
}) {
  return (
    <button
      type="button"
      className={className ? `icon-btn ${className}` : "icon-btn"}
      aria-label={label}
      {...button}
    >
      <Icon size={iconSize} aria-hidden />
    </button>
  );
}
