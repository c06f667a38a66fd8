import { Link, Outlet } from "react-router";
import "./public-layout.css";

/** Public views (shared links, embeds, previews): a quiet brand bar instead of the app header. */
export function PublicLayout() {
  return (
    <div className="public-layout">
      <header className="public-layout__bar">
        <Link to="/" className="public-layout__brand">
          <span className="public-layout__mark" aria-hidden>
            R
          </span>
          Redline
        </Link>
      </header>
      <Outlet />
    </div>
  );
}
