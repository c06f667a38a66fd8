/** A new team of the current product (SPEC §7 create-team): an optional name, else "{name}'s Team". */
import { defaultTeamName, type Product, TEAM_NAME_MAX, type Team } from "@redline/shared";
import { Users } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Field } from "../../components/field.tsx";
import { useCreateTeam } from "./team-queries.ts";

export function CreateTeamForm({
  product,
  displayName,
  onCreated,
}: {
  product: Product;
  displayName: string;
  onCreated(team: Team): void;
}) {
  const [name, setName] = useState("");
  const create = useCreateTeam();
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const trimmed = name.trim();
    create.mutate(
      { product, ...(trimmed && { name: trimmed }) },
      { onSuccess: ({ data }) => onCreated(data) },
    );
  };
  return (
    <form className="team-create" onSubmit={handleSubmit}>
      <Field label="Team name" hint="You can rename it later.">
        {(control) => (
          <input
            {...control}
            className="input"
            value={name}
            maxLength={TEAM_NAME_MAX}
            placeholder={defaultTeamName(displayName)}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="btn btn--primary" disabled={create.isPending}>
        <Users size={16} aria-hidden /> {create.isPending ? "Creating..." : "Create team"}
      </button>
    </form>
  );
}
