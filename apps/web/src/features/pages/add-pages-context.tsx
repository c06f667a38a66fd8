/**
 * Adding pages to the open project: by URL (one, or several paths of one site, one after the other)
 * or by uploading an image or PDF. Lives in the project layout so a capture's progress survives moving
 * between the project's pages. 'Fetching page...' while a capture runs, '[i/n] New page added to your
 * project.' when it is ready, then the new page's comment view opens. A full project (402 or the known
 * count) or the owner's full storage (402) shows the upgrade prompt.
 */
import {
  type AddPageResponse,
  MESSAGES,
  PROJECT_MESSAGES,
  type ProjectDetail,
  pageAddedMessage,
  pagesLeft,
  SNACKBAR_MS,
  type VersionStatus,
} from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { dismissSnackbar, showSnackbar, snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal, showUpgradePrompt } from "../../components/upgrade-prompt-store.ts";
import { isApiError } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { isTooLarge } from "../../lib/files.ts";
import { invalidateProjectLists, PROJECTS_KEY, projectKey } from "../projects/project-queries.ts";
import { pageLimitPrompt } from "./page-limit.ts";
import { addPageByUrl, uploadFile, waitForCapture } from "./page-queries.ts";
import { withPage } from "./use-versions-realtime.ts";

export interface AddJob {
  index: number;
  total: number;
  /** The URL or file name being added. */
  label: string;
  status: VersionStatus | "uploading";
  stage: string | null;
}

interface AddPages {
  job: AddJob | null;
  /** The page limit that applies to this project (-1: none). */
  limit: number;
  /** How many more pages fit (null: no limit). */
  remaining: number | null;
  isAtLimit: boolean;
  addUrls(urls: string[], isScreenshot: boolean): void;
  upload(file: File): void;
  showLimitPrompt(): void;
}

const AddPagesContext = createContext<AddPages | null>(null);
const FETCHING_ID = "fetching-page";

export function failureText(reason: string | null): string {
  return reason ? `${reason} ${MESSAGES.pageLoadFailed}` : MESSAGES.pageLoadFailed;
}

export function AddPagesProvider({ project, children }: { project: ProjectDetail; children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [job, setJob] = useState<AddJob | null>(null);
  const running = useRef<AbortController | null>(null);
  // The limit and what is left of it come from the server, which also enforces them.
  const limit = project.pageLimit;
  const limitRef = useRef(limit);
  limitRef.current = limit;
  const remaining = project.pagesLeft;
  const isAtLimit = remaining === 0;
  const projectId = project.id;

  // Leaving the project stops following its captures (they go on on the server).
  useEffect(
    () => () => {
      if (!running.current) return;
      running.current.abort();
      dismissSnackbar(FETCHING_ID);
    },
    [],
  );

  const api = useMemo(() => {
    const invalidate = () => queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
    const isListed = (pageId: string) =>
      Boolean(
        queryClient.getQueryData<ProjectDetail>(projectKey(projectId))?.pages.some((p) => p.id === pageId),
      );
    /**
     * The added page, as the answer gives it, goes into the cached project with the project's new count
     * (unless a capture event brought it first); the capture's events keep it current. Only the projects
     * list is read again, when it is next shown.
     */
    const listAdded = (added: AddPageResponse) => {
      const { page } = added;
      if (!page) return invalidate();
      queryClient.setQueryData<ProjectDetail>(projectKey(projectId), (project) => {
        if (!project) return project;
        const pageCount = project.pageCount + 1;
        return { ...withPage(project, page), pageCount, pagesLeft: pagesLeft(project.pageLimit, pageCount) };
      });
      return invalidateProjectLists(queryClient);
    };
    const start = () => {
      if (running.current && !running.current.signal.aborted) return null;
      const controller = new AbortController();
      running.current = controller;
      return controller.signal;
    };
    const finish = (signal: AbortSignal) => {
      if (signal.aborted) return;
      running.current = null;
      setJob(null);
    };
    const showLimitPrompt = () => showUpgradePrompt(pageLimitPrompt(limitRef.current));
    /** 402 → the upgrade prompt; anything else → the error text (SPEC §8: page-add failure shows it). */
    const handleAddError = (error: unknown) => {
      dismissSnackbar(FETCHING_ID);
      if (isApiError(error) && error.code === "page-limit") {
        showLimitPrompt();
        void invalidate();
      } else if (!showPlanRefusal(error)) snackbar.error(errorMessage(error));
    };
    const openPage = async (added: AddPageResponse, view: "comment" | null) => {
      // The project must list the new page before its view opens (it does when its capture was followed).
      if (isListed(added.pageId)) await invalidateProjectLists(queryClient);
      else await invalidate();
      navigate(
        view
          ? `/project/${added.projectId}/${added.pageId}/${added.versionId}/${view}`
          : `/project/${added.projectId}/${added.pageId}`,
      );
    };

    const addUrls = async (urls: string[], isScreenshot: boolean) => {
      const signal = start();
      if (!signal || urls.length === 0) return;
      let lastReady: AddPageResponse | null = null;
      let firstFailed: AddPageResponse | null = null;
      try {
        for (const [i, url] of urls.entries()) {
          const index = i + 1;
          const total = urls.length;
          setJob({ index, total, label: url, status: "queued", stage: "Queued" });
          showSnackbar("info", PROJECT_MESSAGES.fetchingPage, { id: FETCHING_ID, durationMs: null });
          let added: AddPageResponse;
          try {
            added = (await addPageByUrl(projectId, { url, isScreenshot }, signal)).data;
          } catch (error) {
            if (!signal.aborted) handleAddError(error);
            break;
          }
          void listAdded(added);
          const version = await waitForCapture(queryClient, projectId, added.versionId, {
            signal,
            onUpdate: (next) =>
              setJob((current) => current && { ...current, status: next.status, stage: next.stage }),
          });
          dismissSnackbar(FETCHING_ID);
          if (version.status === "ready") {
            snackbar.success(pageAddedMessage(index, total));
            lastReady = added;
          } else {
            snackbar.error(failureText(version.failureReason), SNACKBAR_MS.long);
            firstFailed ??= added;
          }
        }
      } catch (error) {
        if (!signal.aborted) handleAddError(error);
      } finally {
        finish(signal);
      }
      if (signal.aborted) return;
      if (lastReady) await openPage(lastReady, "comment");
      else if (firstFailed) await openPage(firstFailed, null);
    };

    const upload = async (file: File) => {
      if (isTooLarge(file)) {
        snackbar.warning(MESSAGES.maxFileSize);
        return;
      }
      const signal = start();
      if (!signal) return;
      setJob({ index: 1, total: 1, label: file.name, status: "uploading", stage: "Uploading" });
      try {
        const { data } = await uploadFile(projectId, file, signal);
        void invalidate();
        snackbar.success(pageAddedMessage(1, 1));
        finish(signal);
        await openPage(data, "comment");
      } catch (error) {
        if (!signal.aborted) handleAddError(error);
        finish(signal);
      }
    };

    return { addUrls, upload, showLimitPrompt };
  }, [projectId, navigate, queryClient]);

  const value = useMemo<AddPages>(
    () => ({ job, limit, remaining, isAtLimit, ...api }),
    [job, limit, remaining, isAtLimit, api],
  );

  return <AddPagesContext.Provider value={value}>{children}</AddPagesContext.Provider>;
}

export function useAddPages(): AddPages {
  const context = useContext(AddPagesContext);
  if (!context) throw new Error("useAddPages is used outside AddPagesProvider");
  return context;
}
