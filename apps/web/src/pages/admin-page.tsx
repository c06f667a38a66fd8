/**
 * `/admin`: the instance admin, for the operators named in ADMIN_EMAILS (issue #34 item 6). Tabs — users,
 * teams, usage, mail and jobs, audit — kept in the URL (`?tab=`). The server decides who is an operator:
 * to anyone else every admin route is a 404, and so is this page.
 */
import { Link, useSearchParams } from "react-router";
import { ErrorPage } from "../components/error-page.tsx";
import { LoadingView } from "../components/loading-view.tsx";
import {
  AuditPanel,
  HealthPanel,
  TeamsPanel,
  UsagePanel,
  UsersPanel,
} from "../features/admin/admin-panels.tsx";
import { isNotAdmin, useAdminHealth } from "../features/admin/admin-queries.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import "../features/admin/admin.css";

const TABS = [
  { id: "users", label: "Users", Panel: UsersPanel },
  { id: "teams", label: "Teams", Panel: TeamsPanel },
  { id: "usage", label: "Usage", Panel: UsagePanel },
  { id: "health", label: "Mail and jobs", Panel: HealthPanel },
  { id: "audit", label: "Audit", Panel: AuditPanel },
] as const;

export function AdminPage() {
  useDocumentTitle("Admin");
  const [params, setParams] = useSearchParams();
  // One cheap read tells whether the reader is an operator before any tab shows.
  const gate = useAdminHealth();
  if (gate.isPending) return <LoadingView />;
  if (gate.isError && isNotAdmin(gate.error)) return <ErrorPage code={404} />;
  const active = TABS.find((tab) => tab.id === params.get("tab")) ?? TABS[0];
  const { Panel } = active;
  return (
    <main className="admin">
      <div className="admin__head">
        <h1 className="admin__title">Admin</h1>
        <Link className="link" to="/projects">
          Back to projects
        </Link>
      </div>
      <div className="admin__tabs" role="tablist" aria-label="Admin sections">
        {TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`admin-tab-${tab.id}`}
            aria-selected={tab.id === active.id}
            aria-controls="admin-tabpanel"
            className="admin__tab"
            onClick={() => setParams({ tab: tab.id }, { replace: true })}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id="admin-tabpanel" role="tabpanel" aria-labelledby={`admin-tab-${active.id}`}>
        <Panel />
      </div>
    </main>
  );
}
