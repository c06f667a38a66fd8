import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from "lucide-react";
import { dismissSnackbar, type SnackbarKind, useSnackbars } from "./snackbar-store.ts";
import "./snackbars.css";

const ICONS: Record<SnackbarKind, typeof Info> = {
  success: CircleCheck,
  error: CircleAlert,
  warning: TriangleAlert,
  info: Info,
};

/** Renders the snackbar store. Errors are alerts; everything else is a polite status. */
export function Snackbars() {
  const items = useSnackbars();
  return (
    <div className="snackbars">
      {items.map((item) => {
        const Icon = ICONS[item.kind];
        return (
          <div
            key={item.id}
            className={`snackbar snackbar--${item.kind}`}
            role={item.kind === "error" || item.kind === "warning" ? "alert" : "status"}
          >
            <Icon size={18} aria-hidden className="snackbar__icon" />
            <span className="snackbar__message">{item.message}</span>
            <button
              type="button"
              className="snackbar__dismiss"
              aria-label="Dismiss"
              onClick={() => dismissSnackbar(item.id)}
            >
              <X size={16} aria-hidden />
            </button>
          </div>
        );
      })}
    </div>
  );
}
