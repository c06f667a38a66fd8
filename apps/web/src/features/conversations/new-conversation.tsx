/**
 * Starting a conversation with people of one of one's projects: pick the project, then the people
 * (everyone with an account in it but oneself). The same people in the same project keep one conversation.
 */
import type { Conversation, ConversationPerson, ProjectSummary } from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { CONVERSATIONS_KEY } from "./conversation-queries.ts";

export function NewConversation({ onStarted }: { onStarted: (conversation: Conversation) => void }) {
  const queryClient = useQueryClient();
  const [projectId, setProjectId] = useState("");
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const projects = useQuery({
    queryKey: ["/api/projects", "conversations"],
    queryFn: ({ signal }) =>
      api<{ data: ProjectSummary[] }>("/api/projects?list=all", { signal }).then((r) => r.data),
  });
  const people = useQuery({
    queryKey: ["/api/conversations/people", projectId],
    queryFn: ({ signal }) =>
      api<{ data: ConversationPerson[] }>(
        `/api/conversations/people?projectId=${encodeURIComponent(projectId)}`,
        {
          signal,
        },
      ).then((r) => r.data),
    enabled: projectId !== "",
  });
  const start = useMutation({
    mutationFn: () =>
      api<{ data: Conversation }>("/api/conversations", {
        method: "POST",
        body: { projectId, participantIds: [...chosen] },
      }).then((r) => r.data),
    onSuccess: async (conversation) => {
      await queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
      onStarted(conversation);
    },
  });

  const toggle = (uid: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(uid)) next.delete(uid);
      else next.add(uid);
      return next;
    });

  return (
    <form
      className="new-conversation"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen.size > 0) start.mutate();
      }}
    >
      <label className="new-conversation__field">
        <span>Project</span>
        <select
          className="input"
          value={projectId}
          onChange={(event) => {
            setProjectId(event.target.value);
            setChosen(new Set());
          }}
        >
          <option value="">{projects.isPending ? "Loading projects…" : "Choose a project"}</option>
          {(projects.data ?? []).map((project) => (
            <option key={project.id} value={project.id}>
              {project.title}
            </option>
          ))}
        </select>
      </label>
      {projectId === "" ? null : people.isPending ? (
        <p className="conversations__state">Loading people…</p>
      ) : people.isError ? (
        <p className="conversations__state" role="alert">
          People could not be loaded.
        </p>
      ) : people.data.length === 0 ? (
        <p className="conversations__state">Nobody else is in this project yet.</p>
      ) : (
        <fieldset className="new-conversation__people">
          <legend>People</legend>
          {people.data.map((person) => (
            <label key={person.uid} className="new-conversation__person">
              <input type="checkbox" checked={chosen.has(person.uid)} onChange={() => toggle(person.uid)} />
              <Avatar name={person.displayName} photoURL={person.photoURL} size={24} />
              {person.displayName}
            </label>
          ))}
        </fieldset>
      )}
      {start.isError ? (
        <p className="composer-bar__error" role="alert">
          {isApiError(start.error) ? start.error.message : "The conversation could not be started."}
        </p>
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={chosen.size === 0 || start.isPending}>
        Start conversation
      </button>
    </form>
  );
}
