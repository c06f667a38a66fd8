import { Outlet } from "react-router";
import { BrandLink } from "../components/brand-link.tsx";
import "./public-layout.css";

/** Public views (shared links, embeds, previews): a quiet brand bar instead of the app header. */
export function PublicLayout() {
  return (
    <div className="public-layout">
      <header className="public-layout__bar">
        <BrandLink to="/" />
      </header>
      <Outlet />
    </div>
  );
}
