/**
 * The team's custom domain (issue #14; SPEC §1, §6): the domain, the DNS records to create (each value
 * with a copy button), its status with a re-check, and removal. Shown to whoever may set it (the
 * owner and managers of an enabled team: `abilities.setDomain`); a plan's 402 opens the upgrade prompt.
 */
import {
  type DnsRecord,
  TEAM_DOMAIN_MESSAGES,
  type Team,
  type TeamDomain,
  teamDomainSchema,
} from "@redline/shared";
import { Check, Copy, Globe, RotateCw, TriangleAlert } from "lucide-react";
import { type FormEvent, useState } from "react";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { AddressField } from "../../components/field.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import { useCopy } from "../../lib/use-copy.ts";
import {
  useCheckTeamDomain,
  useRemoveTeamDomain,
  useSetTeamDomain,
  useTeamDomain,
} from "./domain-queries.ts";
import {
  checkedLabel,
  DOMAIN_STATUS_TONE,
  domainStatusHint,
  domainStatusLabel,
  PAUSED_LABEL,
} from "./domain-status.ts";
import "./domain-panel.css";

export function TeamDomainPanel({ team }: { team: Team }) {
  if (!team.abilities.setDomain) return null;
  return <DomainPanel teamId={team.id} isInPlan={team.plan.customDomain} />;
}

/** `isInPlan`: the team's plan has a custom domain (its owner's; a lapsed plan pauses the domain). */
function DomainPanel({ teamId, isInPlan }: { teamId: string; isInPlan: boolean }) {
  const domain = useTeamDomain(teamId);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const remove = useRemoveTeamDomain(teamId);
  const check = useCheckTeamDomain(teamId);

  const current = domain.data ?? null;
  return (
    <section className="panel team-section" aria-labelledby="team-domain-title" aria-busy={domain.isPending}>
      <div className="team-section__head">
        <h2 id="team-domain-title" className="panel__title">
          Custom domain
        </h2>
        {current ? <StatusTag domain={current} isInPlan={isInPlan} /> : null}
      </div>
      <p className="panel__text">
        Open Redline at a domain of your own, such as review.example.com: your team's name in the tab and its
        branding on every screen.
      </p>

      {domain.isPending ? (
        <div className="domain-skeleton" aria-hidden />
      ) : domain.isError ? (
        <div className="team-error" role="alert">
          <TriangleAlert size={20} aria-hidden className="status-view__icon" />
          <p className="status-view__title">The custom domain could not be loaded</p>
          <p className="status-view__text">{errorMessage(domain.error)}</p>
          <button type="button" className="btn" onClick={() => domain.refetch()}>
            <RotateCw size={16} aria-hidden /> Try again
          </button>
        </div>
      ) : (
        <>
          <DomainForm key={current?.domain ?? ""} teamId={teamId} current={current} />
          {current ? (
            <>
              <p className="domain-panel__intro">Create these records at your domain's DNS provider:</p>
              <RecordsTable records={current.records} />
              <p className="domain-panel__hint">
                {isInPlan ? domainStatusHint(current) : TEAM_DOMAIN_MESSAGES.paused(current.domain)}
              </p>
              <div className="domain-panel__actions">
                <span className="domain-panel__checked">
                  {checkedLabel(current.checkedAt, (iso) => timeAgo(iso))}
                </span>
                <button type="button" className="btn" onClick={check.check} disabled={check.isPending}>
                  <RotateCw size={16} aria-hidden className={check.isPending ? "spin" : undefined} />
                  {check.isPending ? "Checking..." : "Check again"}
                </button>
                <button type="button" className="btn btn--danger" onClick={() => setConfirmRemove(true)}>
                  Remove
                </button>
              </div>
            </>
          ) : (
            <p className="domain-panel__empty">
              <Globe size={16} aria-hidden /> No custom domain yet.
            </p>
          )}
        </>
      )}

      <ConfirmModal
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Remove the custom domain?"
        description={`${current?.domain ?? "The domain"} stops opening Redline for this team. You can add it again later, with new records.`}
        confirmLabel="Remove domain"
        pendingLabel="Removing..."
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: ({ message }) => {
              setConfirmRemove(false);
              snackbar.success(message ?? TEAM_DOMAIN_MESSAGES.removed);
            },
            onError: (error) => snackbar.error(errorMessage(error)),
          })
        }
      />
    </section>
  );
}

function StatusTag({ domain, isInPlan }: { domain: TeamDomain; isInPlan: boolean }) {
  return (
    <span className={`tag tag--${isInPlan ? DOMAIN_STATUS_TONE[domain.status] : "warning"}`}>
      <span className="visually-hidden">Status: </span>
      {isInPlan ? domainStatusLabel(domain.status) : PAUSED_LABEL}
    </span>
  );
}

function DomainForm({ teamId, current }: { teamId: string; current: TeamDomain | null }) {
  const [value, setValue] = useState(current?.domain ?? "");
  const [error, setError] = useState<string | null>(null);
  const save = useSetTeamDomain(teamId);
  const isUnchanged = value.trim().toLowerCase() === (current?.domain ?? "");

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = teamDomainSchema.safeParse(value);
    if (!parsed.success) return setError(TEAM_DOMAIN_MESSAGES.invalid);
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: ({ message }) => snackbar.success(message ?? TEAM_DOMAIN_MESSAGES.saved),
      onError: (failure) => {
        if (!showPlanRefusal(failure)) setError(errorMessage(failure));
      },
    });
  };

  return (
    <form className="domain-form" onSubmit={handleSubmit} noValidate>
      <AddressField
        label="Domain"
        error={error}
        className="domain-form__field"
        value={value}
        placeholder="review.example.com"
        onValue={(next) => {
          setValue(next);
          setError(null);
        }}
      />
      <button
        type="submit"
        className="btn btn--primary"
        disabled={save.isPending || isUnchanged || !value.trim()}
      >
        {save.isPending ? "Saving..." : "Save"}
      </button>
    </form>
  );
}

function RecordsTable({ records }: { records: DnsRecord[] }) {
  return (
    <div className="domain-records__scroll">
      <table className="domain-records" aria-label="DNS records">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.type}>
              <td className="domain-records__type">{record.type}</td>
              <td>
                <CopyValue value={record.name} label={`${record.type} name`} />
              </td>
              <td>
                <CopyValue value={record.value} label={`${record.type} value`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A record's name or value, with a button that copies it (its accessible name says which). */
function CopyValue({ value, label }: { value: string; label: string }) {
  const { isCopied, copy } = useCopy(() => {
    snackbar.error("Could not copy. Select the text and copy it instead.");
    return false;
  });
  const handleCopy = () => copy(value);

  return (
    <div className="domain-records__cell">
      <code className="domain-records__value">{value}</code>
      <button
        type="button"
        className="btn btn--ghost domain-records__copy"
        aria-label={`Copy ${label}`}
        onClick={handleCopy}
      >
        {isCopied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
      </button>
      <span className="visually-hidden" role="status">
        {isCopied ? `${label} copied to the clipboard` : ""}
      </span>
    </div>
  );
}
