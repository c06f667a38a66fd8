/**
 * Account Settings → API tokens: a person's own keys for scripts and AI agents (issue #28). The secret is
 * shown once, right after it is made; the list shows what the server keeps — name, access, the first
 * characters, when it was made, last used and expires — and revokes at once.
 */
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_MESSAGES,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenScope,
  MAX_API_TOKEN_NAME_LENGTH,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { Field, FormError, TextField } from "../../components/field.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import { useCopy } from "../../lib/use-copy.ts";

const TOKENS_KEY = ["me", "api-tokens"] as const;
type Expiry = (typeof API_TOKEN_EXPIRY_DAYS)[number];
const expiryLabel = (days: Expiry) => (days === null ? "Never" : days === 365 ? "1 year" : `${days} days`);
const dateLabel = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

export function ApiTokens() {
  const tokens = useQuery({
    queryKey: TOKENS_KEY,
    queryFn: () => api<{ data: ApiToken[] }>("/api/me/tokens").then((answer) => answer.data),
  });
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  return (
    <div className="api-tokens">
      <p className="panel__text">
        Use Redline from scripts and AI agents: send a token as{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>. It can read — and, with write access, change — what
        you can, but never billing, your account or your tokens.
      </p>
      <CreateTokenForm onCreated={setCreated} />
      {created ? <NewTokenSecret created={created} onDone={() => setCreated(null)} /> : null}
      {tokens.isPending ? (
        <p className="panel__text" role="status">
          Loading your tokens…
        </p>
      ) : tokens.isError ? (
        <FormError error={tokens.error}>
          {" "}
          <button type="button" className="btn btn--ghost" onClick={() => tokens.refetch()}>
            Try again
          </button>
        </FormError>
      ) : tokens.data.length === 0 ? (
        <p className="api-tokens__empty">No API tokens yet.</p>
      ) : (
        <ul className="api-tokens__list" aria-label="Your API tokens">
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} />
          ))}
        </ul>
      )}
    </div>
  );
}

function CreateTokenForm({ onCreated }: { onCreated(created: ApiTokenCreated): void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiTokenScope>("read");
  const [expiry, setExpiry] = useState<Expiry>(90);
  const create = useMutation({
    mutationFn: (input: { name: string; scope: ApiTokenScope; expiresInDays: Expiry }) =>
      api<{ data: ApiTokenCreated }>("/api/me/tokens", { method: "POST", body: input }).then((a) => a.data),
    onSuccess: (made, sent) => {
      onCreated(made);
      // Only the name that was sent is cleared: anything typed since stays.
      setName((current) => (current.trim() === sent.name ? "" : current));
      queryClient.setQueryData<ApiToken[]>(TOKENS_KEY, (list) => [made.token, ...(list ?? [])]);
      void queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
  });
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || create.isPending) return;
    create.mutate({ name: trimmed, scope, expiresInDays: expiry });
  };
  return (
    <form className="api-tokens__form" onSubmit={handleSubmit} aria-label="Create an API token">
      <TextField
        label="Token name"
        hint="What will use it, e.g. “Release script”."
        required
        maxLength={MAX_API_TOKEN_NAME_LENGTH}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <fieldset className="api-tokens__scopes">
        <legend className="field__label">Access</legend>
        {API_TOKEN_SCOPES.map((value) => (
          <label key={value} className="api-tokens__scope">
            <input
              type="radio"
              name={`${id}-scope`}
              value={value}
              checked={scope === value}
              onChange={() => setScope(value)}
            />
            {API_TOKEN_SCOPE_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <Field label="Expires after">
        {(control) => (
          <select
            {...control}
            className="input"
            value={String(expiry)}
            onChange={(event) =>
              setExpiry(event.target.value === "null" ? null : (Number(event.target.value) as Expiry))
            }
          >
            {API_TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={String(days)} value={String(days)}>
                {expiryLabel(days)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormError error={create.error} />
      <div className="profile-form__actions">
        <button type="submit" className="btn btn--primary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? "Creating..." : "Create token"}
        </button>
      </div>
    </form>
  );
}

function NewTokenSecret({ created, onDone }: { created: ApiTokenCreated; onDone(): void }) {
  const input = useRef<HTMLInputElement>(null);
  const { isCopied, copy } = useCopy(() => {
    input.current?.select();
    return document.execCommand("copy");
  });
  return (
    <section className="api-tokens__secret" aria-label={`New token ${created.token.name}`}>
      <p className="api-tokens__secret-text">{API_TOKEN_MESSAGES.created}</p>
      <div className="api-tokens__secret-row">
        <input
          ref={input}
          className="input api-tokens__secret-value"
          readOnly
          aria-label="Your new API token"
          value={created.secret}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="btn" onClick={() => copy(created.secret)}>
          {isCopied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

function TokenRow({ token }: { token: ApiToken }) {
  const queryClient = useQueryClient();
  const [isConfirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => api(`/api/me/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE" }),
    onSuccess: () => {
      setConfirming(false);
      queryClient.setQueryData<ApiToken[]>(TOKENS_KEY, (list) => list?.filter((row) => row.id !== token.id));
      snackbar.success(API_TOKEN_MESSAGES.revoked);
    },
    onError: (error) => snackbar.error(error.message),
  });
  const isExpired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();
  return (
    <li className="api-tokens__item">
      <div className="api-tokens__about">
        <p className="api-tokens__name">
          {token.name}{" "}
          <span className="tag">
            {token.kind === "extension" ? "Signed in from this browser" : API_TOKEN_SCOPE_LABELS[token.scope]}
          </span>
          {isExpired ? <span className="tag tag--danger">Expired</span> : null}
        </p>
        <p className="api-tokens__meta">
          <code>{token.prefix}…</code> · Created {dateLabel(token.createdAt)} ·{" "}
          {token.lastUsedAt ? `Last used ${timeAgo(token.lastUsedAt)}` : "Never used"} ·{" "}
          {token.expiresAt
            ? `${isExpired ? "Expired" : "Expires"} ${dateLabel(token.expiresAt)}`
            : "Never expires"}
        </p>
      </div>
      <button
        type="button"
        className="btn btn--danger"
        aria-label={`Revoke token ${token.name}`}
        onClick={() => setConfirming(true)}
      >
        Revoke
      </button>
      <ConfirmModal
        open={isConfirming}
        onOpenChange={setConfirming}
        title="Revoke this token?"
        description={
          token.kind === "extension"
            ? "The browser extension is signed out at once: sign in again from its popup to use it."
            : `Scripts and agents using “${token.name}” stop working at once. This cannot be undone.`
        }
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        isPending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
    </li>
  );
}
