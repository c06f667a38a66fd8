/**
 * "Install widget" (SPEC §2, bug-tracking projects): the `<script>` snippet with its project key and a copy
 * button, the origins allowed to send reports (added and removed, each checked by `widgetOriginSchema`,
 * saved at once), and how to set the widget up (hidden trigger, replay, masking). The button is exported
 * for the board's toolbar; it shows only to people who may manage the widget.
 */
import { widgetOriginSchema } from "@redline/shared";
import { Check, Copy, Globe, Plug, RotateCw, TriangleAlert, X } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { AddressField, Field } from "../../components/field.tsx";
import { Modal } from "../../components/modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { useCopy } from "../../lib/use-copy.ts";
import { useSaveAllowedOrigins, useWidgetSettings } from "./widget-queries.ts";
import "./install-widget.css";
import { IconButton } from "../../components/icon-button.tsx";

export const INSTALL_WIDGET_MESSAGES = {
  title: "Install widget",
  intro: "Paste this snippet before </body> on every page of your site where people should report bugs.",
  noOrigins: "No site may send reports yet: add the address of the site you install the widget on.",
  saved: "Allowed sites saved.",
  duplicate: "This site is already on the list.",
} as const;

export function InstallWidgetButton({
  projectId,
  canManage = true,
}: {
  projectId: string;
  canManage?: boolean;
}) {
  const [open, setOpen] = useState(false);
  if (!canManage) return null;
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        <Plug size={16} aria-hidden /> {INSTALL_WIDGET_MESSAGES.title}
      </button>
      <InstallWidgetModal projectId={projectId} open={open} onOpenChange={setOpen} />
    </>
  );
}

export function InstallWidgetModal({
  projectId,
  open,
  onOpenChange,
}: {
  projectId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const settings = useWidgetSettings(projectId, { enabled: open });
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={INSTALL_WIDGET_MESSAGES.title}
      description={INSTALL_WIDGET_MESSAGES.intro}
    >
      {settings.isPending ? (
        <div className="install-widget__skeleton" role="status" aria-busy="true">
          <span className="visually-hidden">Loading the widget's settings</span>
        </div>
      ) : settings.isError ? (
        <div className="install-widget__error" role="alert">
          <TriangleAlert size={20} aria-hidden />
          <p>The widget's settings could not be loaded: {errorMessage(settings.error)}</p>
          <button type="button" className="btn" onClick={() => settings.refetch()}>
            <RotateCw size={16} aria-hidden /> Try again
          </button>
        </div>
      ) : (
        <div className="install-widget">
          <Snippet snippet={settings.data.snippet} />
          <AllowedOrigins projectId={projectId} origins={settings.data.allowedOrigins} />
          <Instructions />
        </div>
      )}
    </Modal>
  );
}

function Snippet({ snippet }: { snippet: string }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const { isCopied, copy } = useCopy(() => {
    area.current?.select();
    return document.execCommand("copy");
  });
  return (
    <Field label="Snippet">
      {(control) => (
        <div className="install-widget__snippet">
          <textarea
            ref={area}
            {...control}
            className="input install-widget__code"
            readOnly
            rows={4}
            value={snippet}
            spellCheck={false}
            onFocus={(event) => event.target.select()}
          />
          <button type="button" className="btn" aria-label="Copy the snippet" onClick={() => copy(snippet)}>
            {isCopied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
            {isCopied ? "Copied" : "Copy"}
          </button>
          <span className="visually-hidden" role="status">
            {isCopied ? "Snippet copied to the clipboard" : ""}
          </span>
        </div>
      )}
    </Field>
  );
}

function AllowedOrigins({ projectId, origins }: { projectId: string; origins: string[] }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = useSaveAllowedOrigins(projectId);

  const saveList = (next: string[]) =>
    save.mutate(next, {
      onSuccess: () => snackbar.success(INSTALL_WIDGET_MESSAGES.saved),
      onError: (failure) => setError(errorMessage(failure)),
    });
  const handleAdd = (event: FormEvent) => {
    event.preventDefault();
    // People paste a page's address: keep its origin.
    let candidate = value.trim().replace(/\/+$/, "");
    try {
      if (/^https?:\/\//i.test(candidate)) candidate = new URL(candidate).origin;
    } catch {}
    const parsed = widgetOriginSchema.safeParse(candidate);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Enter an origin.");
    const origin = parsed.data.toLowerCase();
    if (origins.includes(origin)) return setError(INSTALL_WIDGET_MESSAGES.duplicate);
    setError(null);
    saveList([...origins, origin]);
    setValue("");
  };

  return (
    <section className="install-widget__section" aria-labelledby="install-widget-origins">
      <h3 id="install-widget-origins" className="install-widget__heading">
        Allowed sites
      </h3>
      <p className="install-widget__text">
        Reports are accepted only from these origins (scheme, host and port).
      </p>
      {origins.length === 0 ? (
        <p className="install-widget__empty">{INSTALL_WIDGET_MESSAGES.noOrigins}</p>
      ) : (
        <ul className="install-widget__origins" aria-label="Allowed sites">
          {origins.map((origin) => (
            <li key={origin} className="install-widget__origin">
              <Globe size={16} aria-hidden />
              <span>{origin}</span>
              <IconButton
                label={`Remove ${origin}`}
                icon={X}
                disabled={save.isPending}
                onClick={() => saveList(origins.filter((other) => other !== origin))}
              />
            </li>
          ))}
        </ul>
      )}
      <form className="install-widget__add" onSubmit={handleAdd} noValidate>
        <AddressField
          label="Site origin"
          error={error}
          className="install-widget__field"
          value={value}
          placeholder="https://www.example.com"
          onValue={(next) => {
            setValue(next);
            setError(null);
          }}
        />
        <button type="submit" className="btn btn--primary" disabled={save.isPending || !value.trim()}>
          Add site
        </button>
      </form>
    </section>
  );
}

function Instructions() {
  return (
    <section className="install-widget__section" aria-labelledby="install-widget-options">
      <h3 id="install-widget-options" className="install-widget__heading">
        Options
      </h3>
      <ul className="install-widget__options">
        <li>
          <code>data-trigger="hidden"</code> hides the “Report a bug” button: the widget then opens with{" "}
          <code>?redline=1</code> in the page's address or <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>B</kbd>.
        </li>
        <li>
          <code>data-replay="true"</code> lets reporters attach a replay of their last two minutes on the page
          (recorded from page load, every input masked).
        </li>
        <li>
          <code>data-redline-mask</code> on any element blurs it in screenshots and keeps its text out of
          reports. Password and other input values are always masked.
        </li>
      </ul>
    </section>
  );
}
