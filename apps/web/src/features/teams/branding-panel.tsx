/**
 * The team's theme, logo and icon (SPEC §3, §4): shown to the owner and managers of an enabled team
 * (`abilities.brand`). The switch and the colours save through PATCH …/branding; each picture uploads on
 * its own with its progress, a preview and a way to remove it. Branding shows to the team's people when
 * it is on and the theme has something in it (SPEC §4).
 */
import {
  BRANDING_IMAGE_TYPES,
  type BrandingAsset,
  brandingApplies,
  DEFAULT_TEAM_THEME,
  TEAM_BRANDING_MESSAGES,
  type Team,
  type TeamTheme,
} from "@redline/shared";
import { ImageIcon, Trash2, Upload } from "lucide-react";
import { type ChangeEvent, type FormEvent, useId, useState } from "react";
import { Field } from "../../components/field.tsx";
import { Switch } from "../../components/switch.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { isTooLarge } from "../../lib/files.ts";
import { useRemoveBrandingAsset, useUpdateBranding, useUploadBrandingAsset } from "./branding-queries.ts";
import "./branding.css";

type Colours = Pick<TeamTheme, "primaryColor" | "secondaryColor" | "textHighlightColor">;

const COLOUR_FIELDS: { key: keyof Colours; label: string; hint: string }[] = [
  { key: "primaryColor", label: "Primary colour", hint: "Buttons and primary actions" },
  { key: "secondaryColor", label: "Secondary colour", hint: "Soft highlights: tags, unread items" },
  { key: "textHighlightColor", label: "Text highlight colour", hint: "Text on primary buttons" },
];

const coloursOf = (theme: TeamTheme | null): Colours => {
  const { primaryColor, secondaryColor, textHighlightColor } = { ...DEFAULT_TEAM_THEME, ...theme };
  return { primaryColor, secondaryColor, textHighlightColor };
};

export function TeamBrandingPanel({ team }: { team: Team }) {
  const update = useUpdateBranding(team.id);
  if (!team.abilities.brand) return null;
  const isShown = brandingApplies(team);

  return (
    <section className="panel team-section branding" aria-labelledby="team-branding-title">
      <div className="team-section__head">
        <h2 id="team-branding-title" className="panel__title">
          Branding
        </h2>
        <span className={isShown ? "tag tag--success" : "tag"}>
          {isShown ? "Shown to the team" : "Not shown"}
        </span>
      </div>
      <p className="panel__text">
        Your colours, logo and icon replace Redline's for everyone in the team: buttons, the header logo and
        the browser tab icon.
      </p>
      <Switch
        label="Custom branding"
        description={
          !team.plan.branding
            ? TEAM_BRANDING_MESSAGES.notInPlan
            : team.customBranding && !isShown
              ? "On — set a colour, a logo or an icon to show it."
              : "Show the team's theme to its members."
        }
        checked={team.customBranding}
        disabled={update.isPending}
        onCheckedChange={(customBranding) => update.mutate({ customBranding })}
      />
      <ColoursForm key={JSON.stringify(coloursOf(team.theme))} team={team} />
      <div className="branding__assets">
        <AssetField
          team={team}
          asset="logo"
          label="Logo"
          hint="Shown in the header, at most 32 px high. PNG, JPEG, WebP or GIF, up to 5 MB."
        />
        <AssetField
          team={team}
          asset="icon"
          label="Icon"
          hint="The browser tab icon, square works best. PNG, JPEG, WebP or GIF, up to 5 MB."
        />
      </div>
    </section>
  );
}

function ColoursForm({ team }: { team: Team }) {
  const saved = coloursOf(team.theme);
  const [draft, setDraft] = useState<Colours>(saved);
  const update = useUpdateBranding(team.id);
  const changed = (Object.keys(draft) as (keyof Colours)[]).filter((key) => draft[key] !== saved[key]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (changed.length === 0 || update.isPending) return;
    update.mutate(Object.fromEntries(changed.map((key) => [key, draft[key]])));
  };

  return (
    <form className="branding__colours" onSubmit={handleSubmit} aria-label="Theme colours">
      <div className="branding__colour-fields">
        {COLOUR_FIELDS.map(({ key, label, hint }) => (
          <Field key={key} label={label} hint={hint} className="branding__colour">
            {(control) => (
              <div className="branding__colour-control">
                <input
                  type="color"
                  className="branding__swatch"
                  value={draft[key]}
                  onChange={(event) => setDraft((current) => ({ ...current, [key]: event.target.value }))}
                  {...control}
                />
                <code className="branding__hex">{draft[key]}</code>
              </div>
            )}
          </Field>
        ))}
      </div>
      <div className="branding__preview" aria-hidden>
        <span className="branding__preview-label">Preview</span>
        <span
          className="branding__preview-button"
          style={{ background: draft.primaryColor, color: draft.textHighlightColor }}
        >
          Primary action
        </span>
        <span
          className="branding__preview-tag"
          style={{ background: draft.secondaryColor, color: draft.primaryColor }}
        >
          Highlight
        </span>
      </div>
      <div className="branding__actions">
        <button
          type="submit"
          className="btn btn--primary"
          disabled={changed.length === 0 || update.isPending}
        >
          {update.isPending ? "Saving..." : "Save colours"}
        </button>
        {changed.length > 0 ? (
          <button type="button" className="btn btn--ghost" onClick={() => setDraft(saved)}>
            Reset
          </button>
        ) : null}
      </div>
    </form>
  );
}

function AssetField({
  team,
  asset,
  label,
  hint,
}: {
  team: Team;
  asset: BrandingAsset;
  label: string;
  hint: string;
}) {
  const id = useId();
  const upload = useUploadBrandingAsset(team.id, asset);
  const remove = useRemoveBrandingAsset(team.id, asset);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const url = asset === "logo" ? team.theme?.logoURL : team.theme?.iconURL;
  const lower = label.toLowerCase();

  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setError(null);
    if (isTooLarge(file)) {
      setError(TEAM_BRANDING_MESSAGES.tooLarge);
      return;
    }
    setProgress(0);
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onError: (failure) => setError(errorMessage(failure)),
        onSettled: () => setProgress(null),
      },
    );
  };

  const isBusy = upload.isPending || remove.isPending;
  return (
    <div className={`branding__asset branding__asset--${asset}`}>
      <p className="field__label">{label}</p>
      <div className="branding__asset-row">
        <div className="branding__asset-preview">
          {url ? (
            <img src={url} alt={`Team ${lower}`} />
          ) : (
            <span className="branding__asset-empty">
              <ImageIcon size={20} aria-hidden />
              No {lower}
            </span>
          )}
        </div>
        <div className="branding__asset-actions">
          <input
            id={`${id}-file`}
            className="visually-hidden file-input"
            type="file"
            accept={BRANDING_IMAGE_TYPES.join(",")}
            disabled={isBusy}
            onChange={handleFile}
            aria-describedby={`${id}-hint`}
          />
          <label className="btn" htmlFor={`${id}-file`} aria-disabled={isBusy || undefined}>
            <Upload size={16} aria-hidden />
            {url ? `Replace ${lower}` : `Upload ${lower}`}
          </label>
          {url ? (
            <button
              type="button"
              className="btn btn--ghost"
              disabled={isBusy}
              onClick={() =>
                remove.mutate(undefined, { onError: (failure) => setError(errorMessage(failure)) })
              }
            >
              <Trash2 size={16} aria-hidden />
              Remove {lower}
            </button>
          ) : null}
        </div>
      </div>
      {progress !== null ? (
        <div
          className="progress"
          role="progressbar"
          aria-label={`Uploading ${lower}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
        >
          <div className="progress__bar" style={{ width: `${Math.max(4, Math.round(progress * 100))}%` }} />
        </div>
      ) : null}
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
