/**
 * Asking for a managed plan (SPEC §6: the Team plan comes with a relationship manager; §7 sendProRequest,
 * §8 'Your request has been sent. We'll get in touch soon.'): the company, its size and a note, sent to the
 * people who run this installation.
 */
import {
  MAX_COMPANY_NAME,
  MAX_SUPPORT_MESSAGE,
  type ProRequestInput,
  proRequestSchema,
  SUPPORT_MESSAGES,
} from "@redline/shared";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { TextAreaField, TextField } from "../../components/field.tsx";
import { FormModal } from "../../components/form-modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { useTextLimit } from "../../components/text-limit.tsx";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import "./support.css";

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
  const send = useMutation({
    mutationFn: (input: ProRequestInput) =>
      api<{ message: string }>("/api/support/pro-request", { method: "POST", body: input }),
  });
  const input = { company: company.trim(), teamSize: Number(teamSize), message: message.trim() };
  const companyLimit = useTextLimit(company, MAX_COMPANY_NAME, "company or team name");
  const messageLimit = useTextLimit(message, MAX_SUPPORT_MESSAGE, "message");
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

  const handleSubmit = () => {
    send.mutate(input, {
      onSuccess: () => {
        snackbar.success(SUPPORT_MESSAGES.requestSent);
        handleOpenChange(false);
      },
    });
  };

  return (
    <FormModal
      open={open}
      onOpenChange={handleOpenChange}
      title="Request a Team plan"
      description="Tell us about your team: the people who run this Redline installation will get in touch by e-mail."
      submitLabel="Send request"
      pendingLabel="Sending..."
      isPending={send.isPending}
      canSubmit={!isIncomplete}
      formClassName="form-stack"
      onSubmit={handleSubmit}
    >
      <TextField
        label="Company or team"
        value={company}
        hint={companyLimit.counter ?? undefined}
        error={companyLimit.message ?? undefined}
        onChange={(e) => setCompany(e.target.value)}
      />
      <TextField
        label="People in the team"
        type="number"
        min={1}
        inputMode="numeric"
        value={teamSize}
        onChange={(e) => setTeamSize(e.target.value)}
      />
      <TextAreaField
        label="Anything else we should know"
        rows={4}
        inputClassName="support-message"
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        hint={messageLimit.counter ?? undefined}
        error={messageLimit.message ?? (send.isError ? errorMessage(send.error) : undefined)}
      />
    </FormModal>
  );
}
