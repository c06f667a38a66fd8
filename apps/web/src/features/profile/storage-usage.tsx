/**
 * What the files of the user's own projects use, per product, against their plan's storage (SPEC §9),
 * exactly as GET /api/me counted it: the server measures and enforces it, the page only shows it.
 */
import { formatBytes, PRODUCTS, type Product, type User } from "@redline/shared";

const PRODUCT_NAMES: Record<Product, string> = { web: "Website feedback", browse: "Bug tracking" };

export function StorageUsage({ user }: { user: User }) {
  return (
    <ul className="list-stack storage-usage">
      {PRODUCTS.map((product) => {
        const { used, limit } = user.storage[product];
        const isLimited = limit !== -1;
        return (
          <li key={product} className="storage-usage__item">
            <span className="storage-usage__label">{PRODUCT_NAMES[product]}</span>
            <span className="storage-usage__amount">
              {isLimited ? `${formatBytes(used)} of ${formatBytes(limit)}` : `${formatBytes(used)} used`}
            </span>
            {isLimited ? (
              <progress
                className="storage-usage__bar"
                aria-label={`${PRODUCT_NAMES[product]} storage used`}
                value={Math.min(used, limit)}
                max={limit}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
