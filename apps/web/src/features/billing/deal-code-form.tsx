/**
 * `/offers` (SPEC §9 lifetime tiers 1–3, partner plans A–D): redeem a lifetime-deal or partner-program
 * code. A code that is not valid or was already used is explained under the field; success is the
 * server's message.
 */
import { Ticket } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Field } from "../../components/field.tsx";
import { type DealCodeKind, isGrantError, useRedeemDealCode } from "./grant-queries.ts";
import "./lifetime-deal.css";
import { clearSent } from "../../lib/clear-sent.ts";

const TEXTS: Record<DealCodeKind, { title: string; text: string; label: string }> = {
  lifetime: {
    title: "Have a lifetime deal code?",
    text: "Redeem the code from your lifetime deal purchase to activate its plan on this account.",
    label: "Lifetime deal code",
  },
  partner: {
    title: "Have a partner code?",
    text: "Redeem the code from our partner program to activate its plan on this account.",
    label: "Partner code",
  },
};

export function DealCodeForm({ kind }: { kind: DealCodeKind }) {
  const texts = TEXTS[kind];
  const titleId = `${kind}-deal-title`;
  const [code, setCode] = useState("");
  const redeem = useRedeemDealCode(kind);
  const error = isGrantError(redeem.error) ? redeem.error.message : undefined;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (redeem.isPending) return;
    redeem.mutate({ code: code.trim() }, { onSuccess: () => setCode(clearSent(code)) });
  };

  return (
    <section className="panel panel--raised lifetime-deal" aria-labelledby={titleId}>
      <div className="lifetime-deal__head">
        <Ticket size={24} aria-hidden className="panel__icon" />
        <div>
          <h2 id={titleId} className="panel__title">
            {texts.title}
          </h2>
          <p className="panel__text">{texts.text}</p>
        </div>
      </div>
      <form className="lifetime-deal__form" onSubmit={handleSubmit}>
        <Field label={texts.label} error={error} className="lifetime-deal__field">
          {(control) => (
            <div className="lifetime-deal__row">
              <input
                {...control}
                className="input lifetime-deal__input"
                value={code}
                required
                maxLength={64}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => {
                  setCode(event.target.value);
                  if (redeem.error) redeem.reset();
                }}
              />
              <button type="submit" className="btn btn--primary" disabled={redeem.isPending}>
                {redeem.isPending ? "Please wait..." : "Redeem"}
              </button>
            </div>
          )}
        </Field>
      </form>
    </section>
  );
}
