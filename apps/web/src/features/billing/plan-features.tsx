/** What a plan allows, as a checked list (the plan cards of /upgrade and the Free plan on /billing). */
import type { Entitlements } from "@redline/shared";
import { Check } from "lucide-react";
import { entitlementLines } from "./billing-rules.ts";

export function PlanFeatures({ name, entitlements }: { name: string; entitlements: Entitlements }) {
  return (
    <ul className="plan-card__features" aria-label={`${name} includes`}>
      {entitlementLines(entitlements).map((line) => (
        <li key={line} className="plan-card__feature">
          <Check size={16} aria-hidden className="plan-card__check" />
          {line}
        </li>
      ))}
    </ul>
  );
}
