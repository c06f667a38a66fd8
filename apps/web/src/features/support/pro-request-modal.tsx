/**
 * Asking for a managed plan (SPEC §6: the Team plan comes with a relationship manager; §7 sendProRequest,
 * §8 'Your request has been sent. We'll get in touch soon.'): the company, its size and a note, sent to the
 * people who run this installation.
 */
import { MAX_COMPANY_NAME, type ProRequestInput, proRequestSchema, SUPPORT_MESSAGES } from "@redline/shared";
import { useState } from "react";
import { TextField } from "../../components/field.tsx";
import "./support.css";
import {
  SupportFormModal,
  SupportMessageField,
  SupportTextField,
  useSupportRequest,
} from "./use-support-request.tsx";

/** A text button that opens the request form: the page places it (the upgrade page, under the plans). */
export function ProRequestButton() {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <p className="form-note">
        Need a relationship manager, invoices or a larger team?{" "}
        <button type="button" className="link" onClick={() => setOpen(true)}>
          Request a Team plan
        </button>
      </p>
      <ProRequestModal open={isOpen} onOpenChange={setOpen} />
    </>
  );
}

export function ProRequestModal({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const [company, setCompany] = useState("");
  const [teamSize, setTeamSize] = useState("");
  const [message, setMessage] = useState("");
  const send = useSupportRequest<ProRequestInput>("/api/support/pro-request", SUPPORT_MESSAGES.requestSent);
  const input = { company: company.trim(), teamSize: Number(teamSize), message: message.trim() };
  const isIncomplete = teamSize === "" || !proRequestSchema.safeParse(input).success;

  const handleOpenChange = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setCompany("");
      setTeamSize("");
      setMessage("");
      send.reset();
    }
  };

  const handleSubmit = () => send.submit(input, () => handleOpenChange(false));

  return (
    <SupportFormModal
      open={open}
      onOpenChange={handleOpenChange}
      title="Request a Team plan"
      description="Tell us about your team: the people who run this Redline installation will get in touch by e-mail."
      submitLabel="Send request"
      isPending={send.isPending}
      canSubmit={!isIncomplete}
      onSubmit={handleSubmit}
    >
      <SupportTextField
        label="Company or team"
        value={company}
        onChange={setCompany}
        max={MAX_COMPANY_NAME}
        name="company or team name"
      />
      <TextField
        label="People in the team"
        type="number"
        min={1}
        inputMode="numeric"
        value={teamSize}
        onChange={(e) => setTeamSize(e.target.value)}
      />
      <SupportMessageField
        label="Anything else we should know"
        rows={4}
        value={message}
        onChange={setMessage}
        sendError={send.error}
      />
    </SupportFormModal>
  );
}
