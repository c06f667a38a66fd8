/**
 * SPEC §9 provide-feedback: the user earns `provideFeedbackWT` with their first page (see
 * earnsFeedbackWalkthrough), and 10 s after the app loads, a user who owns 2 or more projects, has more
 * than one and has not answered yet is asked once. Answering either way sets `provideFeedbackModal`.
 */
import {
  earnsFeedbackWalkthrough,
  type ONBOARDING_FLAGS,
  PROVIDE_FEEDBACK_DELAY_MS,
  type ProjectSummary,
  shouldOfferFeedbackModal,
  type User,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "../../lib/api.ts";
import { ME_KEY } from "../session/use-me.ts";

/** The projects the user can open (owned or shared): the list the projects page reads. */
const ALL_PROJECTS = { list: "all", sort: "modifiedAt", q: "" } as const;

type OnboardingFlag = (typeof ONBOARDING_FLAGS)[number];

export function useProvideFeedback(user: User) {
  const queryClient = useQueryClient();
  const { mutate: setFlag } = useMutation({
    mutationFn: (flag: OnboardingFlag) =>
      api<{ data: User }>("/api/me", { method: "PATCH", body: { onboarding: { [flag]: true } } }),
    onSuccess: ({ data }) => queryClient.setQueryData(ME_KEY, data),
  });
  const onboarding = user.onboarding;
  const ownedProjects = user.counters.projectsCount;

  // Earned once, the first time the app sees a page in one of the user's projects.
  const asked = useRef(false);
  const earns = earnsFeedbackWalkthrough({ projectPagesCount: user.counters.projectPagesCount, onboarding });
  useEffect(() => {
    if (!earns || asked.current) return;
    asked.current = true;
    setFlag("provideFeedbackWT");
  }, [earns, setFlag]);

  // The list is read only once every other condition holds (it is the projects page's query).
  const mayOffer = shouldOfferFeedbackModal({ ownedProjects, projects: ownedProjects, onboarding });
  const { data: projects } = useQuery({
    queryKey: ["api", "projects", ALL_PROJECTS],
    queryFn: async ({ signal }) =>
      (
        await api<{ data: ProjectSummary[] }>(`/api/projects?${new URLSearchParams(ALL_PROJECTS)}`, {
          signal,
        })
      ).data,
    enabled: mayOffer,
  });
  const offer =
    mayOffer &&
    projects !== undefined &&
    shouldOfferFeedbackModal({ ownedProjects, projects: projects.length, onboarding });

  // 10 s after load: the timer starts with the app, not when the list arrives.
  const [isDue, setDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), PROVIDE_FEEDBACK_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const [isAnswered, setAnswered] = useState(false);
  return {
    isOffered: offer && isDue && !isAnswered,
    /** Either answer: never asked again. */
    answer() {
      setAnswered(true);
      setFlag("provideFeedbackModal");
    },
  };
}
