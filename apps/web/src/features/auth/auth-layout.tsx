import type { ReactNode } from "react";
import { Link } from "react-router";
import "./auth.css";

/**
 * The frame of the signed-out pages: a short statement of what Redline does on the left, the form
 * card on the right (stacked on narrow screens).
 */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="auth">
      <aside className="auth__intro">
        <Link to="/" className="auth__brand">
          <span className="auth__mark" aria-hidden>
            R
          </span>
          Redline
        </Link>
        <div className="auth__pitch">
          <p className="auth__headline">Review websites, images and PDFs together.</p>
          <ul className="auth__points">
            <li>Pin comments to any element of a live page or spot on an image.</li>
            <li>Suggest visual edits, approve pages and keep every version.</li>
            <li>Share projects with teammates and clients in one link.</li>
          </ul>
        </div>
        <p className="auth__foot">Open source · self-hosted</p>
      </aside>
      <main className="auth__main">
        <section className="auth__card" aria-labelledby="auth-title">
          <h1 id="auth-title" className="auth__title">
            {title}
          </h1>
          {children}
        </section>
      </main>
    </div>
  );
}
