/**
 * What an e-mail link (a verification, an e-mail change) shows when the server refuses it: the error,
 * an optional next step, the way on (`to`, `label`) and back to sign in.
 */
import { Link } from "react-router";

export function RefusedLink({
  error,
  hint,
  to,
  label,
}: {
  error: string;
  hint?: string;
  to: string;
  label: string;
}) {
  return (
    <div className="auth__notice">
      <p className="form-error" role="alert">
        {error}
      </p>
      {hint ? <p className="auth__text">{hint}</p> : null}
      <div className="auth__actions">
        <Link className="btn btn--primary" to={to}>
          {label}
        </Link>
        <Link className="btn" to="/">
          Back to sign in
        </Link>
      </div>
    </div>
  );
}
