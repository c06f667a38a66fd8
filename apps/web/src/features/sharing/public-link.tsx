/**
 * The public link (SPEC §3 isShared): on or off, and what a visitor of the link may do and see. Those
 * who manage members change it; everyone else sees the link only while it is on. An illustration project's
 * link shows its whole deck, so only "Allow comments" is offered beside the switch.
 */
import { type ProjectSharing, type ProjectSummary, viewerOf } from "@redline/shared";
import { Globe, Lock } from "lucide-react";
import { Switch } from "../../components/switch.tsx";
import { useProject } from "../projects/project-queries.ts";
import { CopyField } from "./copy-field.tsx";
import { useUpdateSharing } from "./sharing-queries.ts";

type Setting = Exclude<keyof ProjectSharing, "public">;

const SETTINGS: { key: Setting; label: string; hint: string }[] = [
  { key: "canComment", label: "Allow comments", hint: "Visitors may comment as guests." },
  { key: "showAllPages", label: "Show all pages", hint: "Otherwise only the first page is shown." },
  {
    key: "showPageVersions",
    label: "Show page versions",
    hint: "Otherwise only each page's latest version.",
  },
  { key: "showEdits", label: "Show edits", hint: "Suggested edits are visible to visitors." },
  { key: "hideDeviceToolbar", label: "Hide device toolbar", hint: "Visitors see the desktop width only." },
];

/** A deck's link shows the whole deck: of the settings, only comments apply to it. */
const settingsFor = (project: ProjectSummary) =>
  viewerOf(project.type) === "slides" ? SETTINGS.filter((setting) => setting.key === "canComment") : SETTINGS;

export function shareLink(projectId: string): string {
  return `${window.location.origin}/share/${projectId}`;
}

export function embedLink(projectId: string): string {
  return `${window.location.origin}/embed/${projectId}`;
}

export function PublicLink({ project }: { project: ProjectSummary }) {
  const { data: detail, isPending, isError } = useProject(project.id);
  const update = useUpdateSharing(project.id);
  const canManage = project.abilities.manageMembers;
  const sharing = detail?.sharing;

  if (!canManage && !sharing?.public) return null;

  return (
    <section className="share-section" aria-labelledby="share-public-title">
      <div className="share-section__head">
        <h3 id="share-public-title" className="share-section__title">
          Public link
        </h3>
        {sharing ? (
          <span className={sharing.public ? "tag tag--success" : "tag"}>
            {sharing.public ? <Globe size={12} aria-hidden /> : <Lock size={12} aria-hidden />}
            {sharing.public ? "On" : "Off"}
          </span>
        ) : null}
      </div>
      {isPending ? (
        <>
          <div className="share-person share-person--skeleton" aria-hidden />
          <span className="visually-hidden" role="status">
            Loading link settings
          </span>
        </>
      ) : isError || !sharing ? (
        <p className="share-message__text" role="alert">
          The link settings could not be loaded.
        </p>
      ) : (
        <>
          {canManage ? (
            <div className="share-settings">
              <Switch
                label="Anyone with the link can view"
                description={
                  sharing.public
                    ? "No account needed. Turn it off to stop the link working."
                    : "Only the people above can open the project."
                }
                checked={sharing.public}
                onCheckedChange={(checked) => update.mutate({ public: checked })}
              />
              {sharing.public ? (
                <div className="share-settings__grid">
                  {settingsFor(project).map((setting) => (
                    <div key={setting.key} title={setting.hint}>
                      <Switch
                        label={setting.label}
                        checked={sharing[setting.key]}
                        onCheckedChange={(checked) => update.mutate({ [setting.key]: checked })}
                      />
                    </div>
                  ))}
                </div>
              ) : null}
            </div>
          ) : null}
          {sharing.public ? (
            <div className="share-links">
              <CopyField label="Share link" value={shareLink(project.id)} />
              <CopyField label="Embed link" value={embedLink(project.id)} />
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
