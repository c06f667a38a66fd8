/**
 * Routes whose screens arrive in later work. Each says what will be there, honestly, with no sample
 * data. One module so they share a single small chunk.
 */
import { useParams } from "react-router";
import { ComingSoon } from "../components/coming-soon.tsx";
import { ErrorPage } from "../components/error-page.tsx";

function appName(app: string | undefined): string {
  if (!app) return "Integration";
  return app.charAt(0).toUpperCase() + app.slice(1);
}

export function IntegrationPage() {
  const { app } = useParams();
  return (
    <ComingSoon title={`${appName(app)} integration`}>
      Connecting {appName(app)} to your projects is coming soon.
    </ComingSoon>
  );
}

/** `/integration/{app}` without a project id is a bad request (SPEC §2). */
export function IntegrationMissingProjectPage() {
  return (
    <ErrorPage code={400} detail="This integration link has no project. Open it again from the project." />
  );
}
