/**
 * The integrations' return pages (SPEC §2): `/integration/{app}/{projectID}` says '{App} connected
 * successfully' and then opens the project; `/integration/{app}` without a project id is a 400 page.
 */
import { useEffect } from "react";
import { useNavigate, useParams } from "react-router";
import { ErrorPage } from "../components/error-page.tsx";

/** The apps whose install comes back here. */
const APPS: Record<string, string> = { slack: "Slack" };
const OPEN_AFTER_MS = 1500;

export function IntegrationPage() {
  const { app = "", projectId = "" } = useParams();
  const navigate = useNavigate();
  const name = APPS[app];
  useEffect(() => {
    if (!name) return;
    const timer = setTimeout(
      () => navigate(`/project/${encodeURIComponent(projectId)}`, { replace: true }),
      OPEN_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [name, navigate, projectId]);
  if (!name) return <ErrorPage code={404} detail="This integration link is not one Redline knows." />;
  return (
    <main className="page page--center">
      <h1 role="status">{name} connected successfully</h1>
      <p>Opening the project…</p>
    </main>
  );
}

/** `/integration/{app}` without a project id is a bad request (SPEC §2). */
export function IntegrationMissingProjectPage() {
  return (
    <ErrorPage code={400} detail="This integration link has no project. Open it again from the project." />
  );
}
