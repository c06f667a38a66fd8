import { PRODUCT_TEXTS } from "@redline/shared";
import type { ReactNode } from "react";
import { BrandLink } from "../../components/brand-link.tsx";
import { useProduct } from "../../lib/use-product.ts";
import "./auth.css";

/**
 * The frame of the signed-out pages: a short statement of what Redline does on the left — in the words
 * of the tab's product (bug tracking on its own host) — the form card on the right (stacked on narrow
 * screens).
 */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const pitch = PRODUCT_TEXTS[useProduct()];
  return (
    <div className="auth">
      <aside className="auth__intro">
        <BrandLink to="/" isLarge />
        <div className="auth__pitch">
          <p className="auth__headline">{pitch.headline}</p>
          <ul className="auth__points">
            {pitch.points.map((point) => (
              <li key={point}>{point}</li>
            ))}
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
