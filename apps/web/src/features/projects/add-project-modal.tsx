/**
 * The add-project modal (SPEC §2): an optional title ('Untitled project' when empty) and the project
 * type. 'Creating new project...' while it runs, then 'New project created.' and the new project opens.
 * Web apps are a plan feature (SPEC §6): on a plan without them, as the server resolved it, the type is
 * shown locked; a refusal (402) says why, with the way to upgrade. 'Belongs to' puts the project in one of
 * the user's teams of its product (SPEC §4: every member edits it), the active team by default.
 */
import {
  DEFAULT_PROJECT_TITLE,
  PROJECT_MESSAGES,
  type ProjectType,
  productOf,
  teamDisplayName,
} from "@redline/shared";
import { useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Field, TextField } from "../../components/field.tsx";
import { FormModal } from "../../components/form-modal.tsx";
import { isPlanRefusal, PlanLimitText } from "../../components/plan-limit-text.tsx";
import { dismissSnackbar, showSnackbar } from "../../components/snackbar-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { useProduct } from "../../lib/use-product.ts";
import { useMe } from "../session/use-me.ts";
import { useTeams } from "../teams/team-queries.ts";
import { teamsForNewProjects, useActiveTeam } from "../teams/use-active-team.ts";
import { JUST_CREATED } from "./just-created.ts";
import { useCreateProject } from "./project-queries.ts";
import { creatableTypesIn, PROJECT_TYPE_INFO } from "./project-types.ts";

const SNACKBAR_ID = "create-project";

export function AddProjectModal({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const id = useId();
  const navigate = useNavigate();
  const titleInput = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState("");
  const tabProduct = useProduct();
  const firstType: ProjectType = tabProduct === "browse" ? "browse" : "web";
  const [type, setType] = useState<ProjectType>(firstType);
  // Opened in the bug-tracking product, a new project is a bug-tracking one unless chosen otherwise.
  useEffect(() => {
    if (open) setType(firstType);
  }, [open, firstType]);
  const create = useCreateProject();
  const { data: me } = useMe();
  const isLocked = (option: ProjectType) =>
    option === "webapp" && me?.plans.web.entitlements.webApp === false;
  const product = productOf(type);
  const teams = teamsForNewProjects(useTeams(product, { enabled: open }).data ?? [], product);
  const active = useActiveTeam(product);
  // undefined: not chosen yet, so the active team (when projects can be added to it); "": only me.
  const [teamChoice, setTeamChoice] = useState<string | undefined>(undefined);
  const teamId =
    teamChoice !== undefined && (teamChoice === "" || teams.some((team) => team.id === teamChoice))
      ? teamChoice
      : teams.some((team) => team.id === active?.id)
        ? active!.id
        : "";

  const handleOpenChange = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setTitle("");
      setType(firstType);
      setTeamChoice(undefined);
      create.reset();
    }
  };

  const handleSubmit = () => {
    showSnackbar("info", PROJECT_MESSAGES.creating, { id: SNACKBAR_ID, durationMs: null });
    create.mutate(
      { title: title.trim(), type, ...(teamId && { teamId }) },
      {
        onSuccess: ({ data, message }) => {
          showSnackbar("success", message || PROJECT_MESSAGES.created, { id: SNACKBAR_ID });
          handleOpenChange(false);
          navigate(`/project/${data.id}`, { state: JUST_CREATED });
        },
        onError: (error) => {
          // At the plan's project limit the modal says so itself, with the way to upgrade.
          if (isPlanRefusal(error)) dismissSnackbar(SNACKBAR_ID);
          else showSnackbar("error", errorMessage(error), { id: SNACKBAR_ID });
        },
      },
    );
  };

  return (
    <FormModal
      open={open}
      onOpenChange={handleOpenChange}
      title="New project"
      description="Give it a name and choose what you will review."
      initialFocusRef={titleInput}
      submitLabel="Create project"
      pendingLabel="Creating..."
      isPending={create.isPending}
      formClassName="add-project"
      onSubmit={handleSubmit}
    >
      {isPlanRefusal(create.error) ? (
        <p className="add-project__limit" role="alert">
          <PlanLimitText message={create.error.message} onNavigate={() => handleOpenChange(false)} />
        </p>
      ) : null}
      <TextField
        label="Project title"
        inputRef={titleInput}
        placeholder={DEFAULT_PROJECT_TITLE}
        maxLength={200}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
      />
      <fieldset className="add-project__types">
        <legend className="field__label">Project type</legend>
        {creatableTypesIn(tabProduct).map((option) => {
          const info = PROJECT_TYPE_INFO[option];
          const Icon = info.icon;
          const locked = isLocked(option);
          return (
            <label key={option} className="add-project__type">
              <input
                type="radio"
                name={`${id}-type`}
                value={option}
                checked={type === option && !locked}
                disabled={locked}
                onChange={() => setType(option)}
              />
              <Icon size={18} aria-hidden className="add-project__type-icon" />
              <span className="add-project__type-text">
                <span className="add-project__type-label">
                  {info.label}
                  {locked ? <span className="tag tag--accent add-project__type-tag">Paid plans</span> : null}
                </span>
                <span className="add-project__type-description">{info.description}</span>
              </span>
            </label>
          );
        })}
      </fieldset>
      {teams.length > 0 ? (
        <Field
          label="Belongs to"
          hint={teamId ? "Everyone in the team can edit it." : "Only the people you share it with."}
        >
          {(control) => (
            <select
              {...control}
              className="input"
              value={teamId}
              onChange={(event) => setTeamChoice(event.target.value)}
            >
              <option value="">Only me</option>
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {teamDisplayName(team)}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
    </FormModal>
  );
}
