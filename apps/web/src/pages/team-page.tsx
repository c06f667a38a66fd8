/**
 * `/team` and `/team/{teamId}` (SPEC §2): the team of the current product — its name, its people and,
 * for the owner or a manager of an enabled team, '+ Add members'. Without a team: a way to create one.
 * The team shown is the one in the URL, else the one remembered for this product, else the first.
 */
import { type Product, TEAM_MESSAGES, type Team, teamDisplayName } from "@redline/shared";
import { Clock, Plus, RotateCw, TriangleAlert, Users } from "lucide-react";
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { ConfirmModal } from "../components/confirm-modal.tsx";
import { InlineEdit } from "../components/inline-edit.tsx";
import { InviteForm } from "../components/invite-form.tsx";
import { LoadingView } from "../components/loading-view.tsx";
import { Modal } from "../components/modal.tsx";
import { snackbar } from "../components/snackbar-store.ts";
import { useMe } from "../features/session/use-me.ts";
import { pickTeam, savedTeamId, saveTeamId } from "../features/teams/active-team.ts";
import { TeamBrandingPanel } from "../features/teams/branding-panel.tsx";
import { CreateTeamForm } from "../features/teams/create-team-form.tsx";
import { TeamDomainPanel } from "../features/teams/domain-panel.tsx";
import { TEAM_ACCESS_OPTIONS, TeamPeople } from "../features/teams/team-people.tsx";
import {
  useInviteTeamMember,
  useIsLeavingTeam,
  useLeaveTeam,
  useRenameTeam,
  useTeam,
  useTeams,
} from "../features/teams/team-queries.ts";
import { errorMessage } from "../lib/auth-client.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { useProduct } from "../lib/use-product.ts";
import "../features/teams/team.css";
import { Panel } from "../components/panel.tsx";

export function TeamPage() {
  useDocumentTitle("Team");
  const product = useProduct();
  const { teamId } = useParams();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const teams = useTeams(product);

  const wanted = teamId ?? null;
  const inList = teams.data?.some((team) => team.id === wanted) ?? false;
  const isLeavingWanted = useIsLeavingTeam(wanted);
  // A team in the URL that is not (or no longer) the user's: say so and show their own — unless they
  // have just left it ('You left the team.' says all there is).
  useEffect(() => {
    if (!teams.data || wanted === null || inList) return;
    if (!isLeavingWanted) snackbar.error(TEAM_MESSAGES.notAccessible);
    navigate("/team", { replace: true });
  }, [teams.data, wanted, inList, isLeavingWanted, navigate]);

  if (teams.isPending || !me) return <LoadingView />;
  if (teams.isError)
    return <LoadError title="Your teams could not be loaded" error={teams.error} retry={teams.refetch} />;

  const active = pickTeam(teams.data, product, inList ? wanted : savedTeamId(product));
  if (!active)
    return (
      <main className="content-page team-page">
        <h1 className="team-page__title">Team</h1>
        <section className="panel team-empty" aria-labelledby="team-empty-title">
          <Users size={28} aria-hidden className="team-empty__icon" />
          <h2 id="team-empty-title" className="panel__title">
            Work together as a team
          </h2>
          <p className="panel__text">
            Create a team to invite managers, members and collaborators. You can belong to several teams.
          </p>
          <CreateTeamForm
            product={product}
            displayName={me.displayName ?? ""}
            onCreated={(team) => openTeam(navigate, product, team)}
          />
        </section>
      </main>
    );
  return (
    <TeamView
      key={active.id}
      team={active}
      teams={teams.data.filter((team) => team.product === product)}
      product={product}
      selfUid={me.uid}
      displayName={me.displayName ?? ""}
    />
  );
}

function openTeam(navigate: ReturnType<typeof useNavigate>, product: Product, team: Team) {
  saveTeamId(product, team.id);
  navigate(`/team/${team.id}`);
}

function TeamView({
  team,
  teams,
  product,
  selfUid,
  displayName,
}: {
  team: Team;
  teams: Team[];
  product: Product;
  selfUid: string;
  displayName: string;
}) {
  const navigate = useNavigate();
  const detail = useTeam(team.id);
  const rename = useRenameTeam(team.id);
  const invite = useInviteTeamMember(team.id);
  const leave = useLeaveTeam(team.id);
  // Once left, the team reads as "not found": what was shown stays until the page shows another team.
  const isLeaving = useIsLeavingTeam(team.id);
  const [adding, setAdding] = useState(false);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [creating, setCreating] = useState(false);

  useEffect(() => saveTeamId(product, team.id), [product, team.id]);

  const name = teamDisplayName(team);
  return (
    <main className="content-page team-page">
      <div className="team-page__head">
        <div>
          <p className="team-page__eyebrow">Team</p>
          <h1 className="team-page__title">
            <InlineEdit
              value={name}
              label="Rename team"
              onSave={team.abilities.rename ? (value) => rename.mutate(value) : undefined}
            />
          </h1>
        </div>
        <div className="team-page__actions">
          {teams.length > 1 ? (
            <select
              className="input team-page__switch"
              aria-label="Show team"
              value={team.id}
              onChange={(event) => {
                const next = teams.find((entry) => entry.id === event.target.value);
                if (next) openTeam(navigate, product, next);
              }}
            >
              {teams.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {teamDisplayName(entry)}
                </option>
              ))}
            </select>
          ) : null}
          <button type="button" className="btn" onClick={() => setCreating(true)}>
            <Plus size={16} aria-hidden /> New team
          </button>
        </div>
      </div>

      {team.isDisabled && team.role === "owner" && team.name.trim() ? (
        <div className="team-notice" role="status">
          <Clock size={16} aria-hidden />
          <p>
            {TEAM_MESSAGES.disabled} Its members keep their own projects; team changes wait until this
            instance's administrator enables it again.
          </p>
        </div>
      ) : null}

      <section className="panel team-section" aria-labelledby="team-members-title">
        <div className="team-section__head">
          <h2 id="team-members-title" className="panel__title">
            Members
          </h2>
          {team.abilities.addMembers ? (
            <button
              type="button"
              className="btn btn--primary"
              aria-expanded={adding}
              onClick={() => setAdding((open) => !open)}
            >
              + Add members
            </button>
          ) : null}
        </div>
        {adding && team.abilities.addMembers ? (
          <InviteForm
            className="team-section__invite"
            accessOptions={TEAM_ACCESS_OPTIONS}
            defaultAccess="member"
            submitLabel="Invite"
            pendingLabel="Inviting..."
            isPending={invite.isPending}
            invite={(input) => invite.mutateAsync(input)}
          />
        ) : null}
        {detail.isError && !isLeaving ? (
          <LoadError title="Members could not be loaded" error={detail.error} retry={detail.refetch} inline />
        ) : detail.data ? (
          <TeamPeople
            teamId={team.id}
            label="Team members"
            people={detail.data.members}
            selfUid={selfUid}
            emptyText="Nobody else is in this team yet."
            onLeave={() => setConfirmLeave(true)}
          />
        ) : (
          <ul className="team-people" aria-busy="true" aria-label="Loading members">
            {[0, 1, 2].map((key) => (
              <li key={key} className="team-person team-person--skeleton" aria-hidden />
            ))}
          </ul>
        )}
      </section>

      {detail.data ? (
        <Panel
          id="team-collaborators-title"
          title="Collaborators"
          text="Collaborators comment on the team's projects they are added to."
          className="team-section"
        >
          <TeamPeople
            teamId={team.id}
            label="Team collaborators"
            people={detail.data.collaborators}
            selfUid={selfUid}
            emptyText="No collaborators yet."
            onLeave={() => setConfirmLeave(true)}
          />
        </Panel>
      ) : null}

      <TeamBrandingPanel team={team} />
      <TeamDomainPanel team={team} />

      <Modal
        open={creating}
        onOpenChange={setCreating}
        title="New team"
        description="Another team of your own: you are its owner, and you invite its people."
      >
        <CreateTeamForm
          product={product}
          displayName={displayName}
          onCreated={(created) => {
            setCreating(false);
            openTeam(navigate, product, created);
          }}
        />
      </Modal>

      <ConfirmModal
        open={confirmLeave}
        onOpenChange={setConfirmLeave}
        title="Leave this team?"
        description={`You lose access to “${name}” and its projects until someone invites you again.`}
        confirmLabel="Leave team"
        pendingLabel="Leaving..."
        isPending={leave.isPending}
        onConfirm={() =>
          leave.mutate(undefined, {
            onSuccess: () => {
              setConfirmLeave(false);
              navigate("/team", { replace: true });
            },
          })
        }
      />
    </main>
  );
}

function LoadError({
  title,
  error,
  retry,
  inline = false,
}: {
  title: string;
  error: unknown;
  retry(): unknown;
  inline?: boolean;
}) {
  return (
    <div className={inline ? "team-error" : "status-view"} role="alert">
      <TriangleAlert size={inline ? 20 : 32} aria-hidden className="status-view__icon" />
      <p className="status-view__title">{title}</p>
      <p className="status-view__text">{errorMessage(error)}</p>
      <button type="button" className="btn" onClick={() => retry()}>
        <RotateCw size={16} aria-hidden /> Try again
      </button>
    </div>
  );
}
