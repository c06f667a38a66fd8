/** What a plan allows, as a checked list (the plan cards of /upgrade and the Free plan on /billing). */
import type { Entitlements } from "@redline/shared";
import { Check } from "lucide-react";
import { entitlementLines } from "./billing-rules.ts";
import "./plans.css";

export function PlanFeatures({
  name,
  entitlements,
  isInline = false,
}: {
  name: string;
  entitlements: Entitlements;
  /** Inside a text block (the free state of /billing), not a plan card. */
  isInline?: boolean;
}) {
  return (
    <ul
      className={isInline ? "plan-card__features plan-card__features--inline" : "plan-card__features"}
      aria-label={`${name} includes`}
    >
      {entitlementLines(entitlements).map((line) => (
        <li key={line} className="plan-card__feature">
          <Check size={16} aria-hidden className="plan-card__check" />
          {line}
        </li>
      ))}
    </ul>
  );
}
