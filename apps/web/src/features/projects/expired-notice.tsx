/**
 * An expired project is read-only (SPEC §4): a calm line says so under the project's bar, with the way
 * to keep working on it unless the user's plan hides upsells. The controls themselves follow abilities.
 */
import { type ProjectSummary, productOf } from "@redline/shared";
import { Clock } from "lucide-react";
import { Link } from "react-router";
import { useMe } from "../session/use-me.ts";
import "./project-home.css";

export const EXPIRED_TEXT = "This project has expired and is read-only.";

export function ExpiredNotice({ project }: { project: Pick<ProjectSummary, "type" | "isExpired"> }) {
  const { data: me } = useMe();
  if (!project.isExpired) return null;
  const showsUpgrade = me ? !me.plans[productOf(project.type)].hideUpsells : false;
  return (
    <div className="expired-notice">
      <Clock size={16} aria-hidden className="expired-notice__icon" />
      <p className="expired-notice__text">{EXPIRED_TEXT}</p>
      {showsUpgrade ? (
        <Link className="link expired-notice__action" to="/upgrade">
          Upgrade to keep working on it
        </Link>
      ) : null}
    </div>
  );
}
