/**
 * A plan limit's refusal (402) said in place — the server's message and the way up — wherever a form keeps
 * its errors beside it (a new project, sharing, a team invitation).
 */
import { Link } from "react-router";
import { type ApiError, isApiError } from "../lib/api.ts";

/** Whether `error` is a plan limit's refusal. */
export function isPlanRefusal(error: unknown): error is ApiError {
  return isApiError(error) && error.status === 402;
}

export function PlanLimitText({ message, onNavigate }: { message: string; onNavigate?: () => void }) {
  return (
    <>
      {message}{" "}
      <Link className="link" to="/upgrade" onClick={onNavigate}>
        Upgrade now
      </Link>
    </>
  );
}
