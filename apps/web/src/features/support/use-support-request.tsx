/**
 * What the support forms (Contact Us, Request a Team plan) share: one send that POSTs the input to its
 * /api/support route and, once it went, says the §8 confirmation and closes the form (a form that closes
 * forgets what it held and the last error: `reset`); their modal, 'Sending...' while the send goes; and
 * their text boxes with their limits.
 */
import { MAX_SUPPORT_MESSAGE } from "@redline/shared";
import { useMutation } from "@tanstack/react-query";
import type { ComponentProps } from "react";
import { TextAreaField, TextField } from "../../components/field.tsx";
import { FormModal } from "../../components/form-modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { useTextLimit } from "../../components/text-limit.tsx";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";

export function useSupportRequest<Input>(
  path: "/api/support/contact" | "/api/support/pro-request",
  sentMessage: string,
) {
  const send = useMutation({
    mutationFn: (input: Input) => api<{ message: string }>(path, { method: "POST", body: input }),
  });
  return {
    isPending: send.isPending,
    /** What went wrong on the last send, worded for the form; undefined while nothing did. */
    error: send.isError ? errorMessage(send.error) : undefined,
    reset: send.reset,
    submit(input: Input, close: () => void) {
      send.mutate(input, {
        onSuccess: () => {
          snackbar.success(sentMessage);
          close();
        },
      });
    },
  };
}

/** The free-text message of a support form: its count near the limit, what is wrong with it or the send. */
export function SupportMessageField({
  label,
  rows,
  value,
  onChange,
  sendError,
}: {
  label: string;
  rows: number;
  value: string;
  onChange(value: string): void;
  sendError: string | undefined;
}) {
  const limit = useTextLimit(value, MAX_SUPPORT_MESSAGE, "message");
  return (
    <TextAreaField
      label={label}
      rows={rows}
      inputClassName="support-message"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hint={limit.counter ?? undefined}
      error={limit.message ?? sendError}
    />
  );
}

/** A support form's modal: its fields in a stack, 'Sending...' on the button while the send goes. */
export function SupportFormModal({
  isPending,
  ...modal
}: Omit<ComponentProps<typeof FormModal>, "pendingLabel" | "formClassName">) {
  return <FormModal {...modal} pendingLabel="Sending..." isPending={isPending} formClassName="form-stack" />;
}

/** A one-line text of a support form, held to `max` characters (`name` words the message). */
export function SupportTextField({
  label,
  value,
  onChange,
  max,
  name,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  max: number;
  name: string;
}) {
  const limit = useTextLimit(value, max, name);
  return (
    <TextField
      label={label}
      value={value}
      hint={limit.counter ?? undefined}
      error={limit.message ?? undefined}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
