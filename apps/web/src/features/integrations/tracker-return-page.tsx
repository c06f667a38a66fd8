/**
 * The task trackers' OAuth return routes (SPEC §2): `/integration/trello` — the token in the URL's
 * fragment and the state in its query, forwarded to the connect callback — and `/integration/clickup`,
 * `/integration/github`, `/integration/asana`, `/integration/jira` — the code and state in its query. On success '{App} connected successfully', then the project; on a
 * refusal (access denied, a wrong or expired state) 'Something went wrong!' and a way back.
 */
import { TRACKER_MESSAGES, TRACKER_NAMES, type TrackerType } from "@redline/shared";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { LoadingView } from "../../components/loading-view.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { useFinishTrackerConnect } from "./tracker-queries.ts";
import "./integrations.css";

function TrackerReturn({ tracker }: { tracker: TrackerType }) {
  const location = useLocation();
  const navigate = useNavigate();
  const finish = useFinishTrackerConnect(tracker);
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const query = new URLSearchParams(location.search);
    const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
    // The token must not stay in the address bar or the history.
    if (location.hash)
      window.history.replaceState(window.history.state, "", `${location.pathname}${location.search}`);
    const state = query.get("state");
    const token = fragment.get("token") ?? undefined;
    const code = query.get("code") ?? undefined;
    if (!state || (tracker === "trello" ? !token : !code)) {
      setFailure(`${TRACKER_NAMES[tracker]} did not grant access.`);
      return;
    }
    finish.mutate(
      { state, token, code },
      {
        onSuccess: ({ message, projectId }) => {
          snackbar.success(message);
          navigate(`/project/${projectId}`, { replace: true });
        },
        onError: (error) => setFailure(errorMessage(error)),
      },
    );
  }, [finish, location, navigate, tracker]);

  if (!failure) return <LoadingView />;
  return (
    <main className="tracker-return" role="alert">
      <h1>{TRACKER_MESSAGES.failedLong}</h1>
      <p>
        {TRACKER_NAMES[tracker]} was not connected: {failure}
      </p>
      <Link className="btn btn--primary" to="/projects">
        Go to projects
      </Link>
    </main>
  );
}

export function TrelloReturnPage() {
  return <TrackerReturn tracker="trello" />;
}

export function ClickupReturnPage() {
  return <TrackerReturn tracker="clickup" />;
}

export function GithubReturnPage() {
  return <TrackerReturn tracker="github" />;
}

export function AsanaReturnPage() {
  return <TrackerReturn tracker="asana" />;
}

export function JiraReturnPage() {
  return <TrackerReturn tracker="jira" />;
}
