/**
 * Share by e-mail (SPEC §5): an existing user is added at once, an unknown address gets an invitation
 * mail. Errors (one's own address, a bad address) stay under the field.
 */
import { accessLabel, MEMBER_ACCESS } from "@redline/shared";
import { InviteForm } from "../../components/invite-form.tsx";
import { useAddMember } from "./sharing-queries.ts";

const ACCESS_OPTIONS = MEMBER_ACCESS.map((value) => ({ value, label: accessLabel(value) }));

export function AddMemberForm({ projectId }: { projectId: string }) {
  const add = useAddMember(projectId);
  return (
    <InviteForm
      accessOptions={ACCESS_OPTIONS}
      defaultAccess="comment"
      submitLabel="Share"
      pendingLabel="Sharing..."
      isPending={add.isPending}
      invite={(input) => add.mutateAsync(input)}
    />
  );
}
