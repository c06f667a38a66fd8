/**
 * The admin page's tabs (pages/admin-page.tsx): users, teams, usage, mail and jobs, audit. Each has its
 * loading, error and empty state; every control has an accessible name that says whom it acts on.
 */
import {
  ADMIN_PARTNER_PLANS,
  ADMIN_PRIVILEGE_PLANS,
  type AdminGrantInput,
  type AdminPage,
  type AdminUser,
} from "@redline/shared";
import { type ReactNode, useState } from "react";
import { LoadingView } from "../../components/loading-view.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import {
  useAdminAudit,
  useAdminHealth,
  useAdminTeams,
  useAdminUsage,
  useAdminUsers,
  useGrantPlan,
  useSetTeamDisabled,
  useSetUserDisabled,
} from "./admin-queries.ts";
import { UsageChart } from "./usage-chart.tsx";

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

interface ReadState<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch(): unknown;
}

/** Loading, error (with a retry) or the content. */
function Loaded<T>({
  query,
  what,
  children,
}: {
  query: ReadState<T>;
  what: string;
  children(data: T): ReactNode;
}) {
  if (query.isPending) return <LoadingView text={`Loading ${what}...`} />;
  if (query.isError || query.data === undefined)
    return (
      <div className="admin__error" role="alert">
        <p>
          The {what} could not be loaded: {errorMessage(query.error)}
        </p>
        <button type="button" className="btn" onClick={() => query.refetch()}>
          Try again
        </button>
      </div>
    );
  return <>{children(query.data)}</>;
}

function Search({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  return (
    <input
      className="input admin__search"
      type="search"
      aria-label={label}
      placeholder={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

function Pager({
  page,
  onPage,
  what,
}: {
  page: AdminPage<unknown>;
  onPage(page: number): void;
  what: string;
}) {
  const last = Math.max(1, Math.ceil(page.total / page.pageSize));
  if (last === 1) return null;
  return (
    <nav className="admin__pager" aria-label={`Pages of ${what}`}>
      <button type="button" className="btn" disabled={page.page <= 1} onClick={() => onPage(page.page - 1)}>
        Previous
      </button>
      <span>
        Page {page.page} of {last}
      </span>
      <button
        type="button"
        className="btn"
        disabled={page.page >= last}
        onClick={() => onPage(page.page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

function useSearch() {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const debounced = useDebouncedValue(q.trim(), 250);
  const search = (value: string) => {
    setQ(value);
    setPage(1);
  };
  return { q, debounced, page, setPage, setQ: search };
}

/**
 * A searched, paged table of one kind of thing (users, teams): the search box, loading and error states, the
 * empty answer, the head, a row per item and the pager.
 */
function SearchedTable<Item extends { id: string }>({
  id,
  title,
  searchLabel,
  noun,
  useItems,
  columns,
  row,
}: {
  id: string;
  title: string;
  searchLabel: string;
  /** Singular, lower case: "user". */
  noun: string;
  useItems(q: string, page: number): ReadState<AdminPage<Item>>;
  columns: readonly string[];
  row(item: Item): ReactNode;
}) {
  const search = useSearch();
  const items = useItems(search.debounced, search.page);
  const plural = `${noun}s`;
  return (
    <section className="admin__panel" aria-labelledby={id}>
      <h2 id={id} className="panel__title">
        {title}
      </h2>
      <Search label={searchLabel} value={search.q} onChange={search.setQ} />
      <Loaded query={items} what={plural}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="admin__empty">
              {search.debounced ? `No ${noun} matches “${search.debounced}”.` : `No ${plural} yet.`}
            </p>
          ) : (
            <>
              <table className="admin__table">
                <thead>
                  <tr>
                    {columns.map((column) => (
                      <th key={column} scope="col">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>{page.items.map((item) => row(item))}</tbody>
              </table>
              <Pager page={page} onPage={search.setPage} what={plural} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}

const planOf = (user: AdminUser) =>
  [
    user.privilege && `Privilege: ${user.privilege}`,
    user.partnerPlan && `Partner ${user.partnerPlan}`,
    ...user.lifetimeTiers.map((tier) => `Lifetime ${tier.replace("tier_", "tier ")}`),
  ]
    .filter(Boolean)
    .join(", ") || "Free";

const GRANTS: { value: string; label: string; grant: AdminGrantInput }[] = [
  ...ADMIN_PRIVILEGE_PLANS.map((plan) => ({
    value: `privilege:${plan}`,
    label: `Privilege: ${plan}`,
    grant: { kind: "privilege", plan } as const,
  })),
  { value: "privilege:none", label: "Take the privilege back", grant: { kind: "privilege", plan: null } },
  ...([1, 2, 3] as const).map((tier) => ({
    value: `lifetime:${tier}`,
    label: `Lifetime deal, tier ${tier}`,
    grant: { kind: "lifetime", tier } as const,
  })),
  ...ADMIN_PARTNER_PLANS.map((plan) => ({
    value: `partner:${plan}`,
    label: `Partner plan ${plan}`,
    grant: { kind: "partner", plan } as const,
  })),
];

function GrantControl({ user }: { user: AdminUser }) {
  const [choice, setChoice] = useState("");
  const grant = useGrantPlan();
  const chosen = GRANTS.find((entry) => entry.value === choice);
  return (
    <form
      className="admin__grant"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen)
          grant.mutate({ userId: user.id, grant: chosen.grant }, { onSuccess: () => setChoice("") });
      }}
    >
      <select
        className="input"
        aria-label={`Plan to grant ${user.email}`}
        value={choice}
        onChange={(event) => setChoice(event.target.value)}
      >
        <option value="">Grant a plan…</option>
        {GRANTS.map((entry) => (
          <option key={entry.value} value={entry.value}>
            {entry.label}
          </option>
        ))}
      </select>
      <button type="submit" className="btn" disabled={!chosen || grant.isPending}>
        {grant.isPending ? "Granting..." : "Grant"}
      </button>
    </form>
  );
}

export function UsersPanel() {
  const setDisabled = useSetUserDisabled();
  return (
    <SearchedTable
      id="admin-users-title"
      title="Users"
      searchLabel="Search users by e-mail or name"
      noun="user"
      useItems={useAdminUsers}
      columns={["User", "Signed up", "Plan", "State", "Actions"]}
      row={(user) => (
        <tr key={user.id}>
          <th scope="row">
            <span className="admin__primary">{user.email}</span>
            <span className="admin__secondary">{user.displayName || "—"}</span>
          </th>
          <td>{date.format(new Date(user.createdAt))}</td>
          <td>{planOf(user)}</td>
          <td>
            {user.disabledAt ? (
              <span className="admin__tag admin__tag--danger">Disabled</span>
            ) : user.isAdmin ? (
              <span className="admin__tag">Operator</span>
            ) : user.emailVerified ? (
              "Active"
            ) : (
              "Not verified"
            )}
          </td>
          <td className="admin__actions">
            {user.isAdmin ? null : (
              <button
                type="button"
                className={user.disabledAt ? "btn" : "btn btn--danger"}
                aria-label={`${user.disabledAt ? "Enable" : "Disable"} ${user.email}`}
                disabled={setDisabled.isPending}
                onClick={() => setDisabled.mutate({ userId: user.id, disabled: !user.disabledAt })}
              >
                {user.disabledAt ? "Enable" : "Disable"}
              </button>
            )}
            <GrantControl user={user} />
          </td>
        </tr>
      )}
    />
  );
}

export function TeamsPanel() {
  const setDisabled = useSetTeamDisabled();
  return (
    <SearchedTable
      id="admin-teams-title"
      title="Teams"
      searchLabel="Search teams by name or owner"
      noun="team"
      useItems={useAdminTeams}
      columns={["Team", "Owner", "People", "Plan", "State", "Actions"]}
      row={(team) => (
        <tr key={team.id}>
          <th scope="row">
            <span className="admin__primary">{team.name}</span>
            <span className="admin__secondary">
              {team.product === "browse" ? "Bug tracking" : "Website feedback"}
            </span>
          </th>
          <td>{team.ownerEmail}</td>
          <td>{team.members}</td>
          <td>{team.isPaid ? "Paid" : "Free"}</td>
          <td>
            {team.isDisabled ? <span className="admin__tag admin__tag--danger">Disabled</span> : "Enabled"}
          </td>
          <td className="admin__actions">
            <button
              type="button"
              className={team.isDisabled ? "btn" : "btn btn--danger"}
              aria-label={`${team.isDisabled ? "Enable" : "Disable"} team ${team.name}`}
              disabled={setDisabled.isPending}
              onClick={() => setDisabled.mutate({ teamId: team.id, disabled: !team.isDisabled })}
            >
              {team.isDisabled ? "Enable" : "Disable"}
            </button>
          </td>
        </tr>
      )}
    />
  );
}

const PERIODS = [7, 30, 90] as const;

export function UsagePanel() {
  const [days, setDays] = useState<number>(30);
  const usage = useAdminUsage(days);
  return (
    <section className="admin__panel" aria-labelledby="admin-usage-title">
      <div className="admin__head">
        <h2 id="admin-usage-title" className="panel__title">
          Usage
        </h2>
        <select
          className="input"
          aria-label="Period"
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
        >
          {PERIODS.map((period) => (
            <option key={period} value={period}>
              Last {period} days
            </option>
          ))}
        </select>
      </div>
      <Loaded query={usage} what="usage">
        {(data) => <UsageChart usage={data} />}
      </Loaded>
    </section>
  );
}

export function HealthPanel() {
  const health = useAdminHealth();
  return (
    <section className="admin__panel" aria-labelledby="admin-health-title">
      <h2 id="admin-health-title" className="panel__title">
        Mail and jobs
      </h2>
      <Loaded query={health} what="mail and job queue">
        {({ outbox, queues }) => (
          <>
            <dl className="admin__stats">
              <div>
                <dt>Mail waiting</dt>
                <dd>{outbox.pending}</dd>
              </div>
              <div>
                <dt>Mail given up</dt>
                <dd>{outbox.failed}</dd>
              </div>
            </dl>
            <h3 className="admin__subtitle">Recent delivery failures</h3>
            {outbox.recentFailures.length === 0 ? (
              <p className="admin__empty">No mail is failing.</p>
            ) : (
              <table className="admin__table">
                <thead>
                  <tr>
                    <th scope="col">To</th>
                    <th scope="col">Subject</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last error</th>
                    <th scope="col">Written</th>
                  </tr>
                </thead>
                <tbody>
                  {outbox.recentFailures.map((mail) => (
                    <tr key={mail.id}>
                      <th scope="row">{mail.to}</th>
                      <td>{mail.subject}</td>
                      <td>{mail.attempts}</td>
                      <td className="admin__error-text">{mail.lastError}</td>
                      <td>{dateTime.format(new Date(mail.createdAt))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h3 className="admin__subtitle">Job queue</h3>
            {queues.length === 0 ? (
              <p className="admin__empty">No jobs on the queue.</p>
            ) : (
              <table className="admin__table">
                <thead>
                  <tr>
                    <th scope="col">Queue</th>
                    <th scope="col">State</th>
                    <th scope="col">Jobs</th>
                  </tr>
                </thead>
                <tbody>
                  {queues.map((row) => (
                    <tr key={`${row.name}-${row.state}`}>
                      <th scope="row">{row.name}</th>
                      <td>{row.state}</td>
                      <td>{row.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

const ACTION_LABELS: Record<string, string> = {
  "users.disable": "Disabled user",
  "users.enable": "Enabled user",
  "users.grant": "Granted a plan to",
  "teams.disable": "Disabled team",
  "teams.enable": "Enabled team",
};

const detailsText = (details: Record<string, unknown>) =>
  details.kind === "privilege"
    ? details.plan === null
      ? "privilege taken back"
      : `privilege ${String(details.plan)}`
    : details.kind === "lifetime"
      ? `lifetime tier ${String(details.tier)}`
      : details.kind === "partner"
        ? `partner plan ${String(details.plan)}`
        : "";

export function AuditPanel() {
  const [page, setPage] = useState(1);
  const audit = useAdminAudit(page);
  return (
    <section className="admin__panel" aria-labelledby="admin-audit-title">
      <h2 id="admin-audit-title" className="panel__title">
        Audit
      </h2>
      <Loaded query={audit} what="audit">
        {(entries) =>
          entries.items.length === 0 ? (
            <p className="admin__empty">No admin action yet.</p>
          ) : (
            <>
              <table className="admin__table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Operator</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.items.map((entry) => (
                    <tr key={entry.id}>
                      <th scope="row">{dateTime.format(new Date(entry.createdAt))}</th>
                      <td>{entry.adminEmail}</td>
                      <td>{ACTION_LABELS[entry.action] ?? entry.action}</td>
                      <td>
                        {entry.targetLabel}
                        {detailsText(entry.details) ? ` — ${detailsText(entry.details)}` : ""}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={entries} onPage={setPage} what="the audit" />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
