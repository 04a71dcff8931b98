"use client";

import { useCallback, useEffect, useState } from "react";
import type { ActionState } from "@/lib/dashboard/action-state";
import {
  cancelResearchAction,
  recentResearchAction,
  researchJobAction,
  startResearchAction,
} from "@/lib/dashboard/actions/research";
import { isActive, RESEARCH_POLL_MS } from "@/lib/dashboard/research-view";
import type { ResearchJobView } from "@/lib/services/research/job-view";

interface ResearchState {
  /** The job on show: the one just started, or one picked from the recent jobs. */
  job: ResearchJobView | null;
  /** The workspace's recent jobs, newest first; null until the tab first shows. */
  recent: ResearchJobView[] | null;
  starting: boolean;
  /** Cancel was asked for the job on show; a running job stops within a few seconds. */
  cancelling: boolean;
  /** The last start, poll or cancel that failed. */
  problem: ActionState<never> | null;
}

/**
 * The Research tab's jobs: start one, read it every RESEARCH_POLL_MS while it is queued or running, cancel
 * it, and the recent jobs (read when the tab first shows and whenever a job starts or ends).
 */
export function useResearch(visible: boolean) {
  const [job, setJob] = useState<ResearchJobView | null>(null);
  const [recent, setRecent] = useState<ResearchJobView[] | null>(null);
  const [starting, setStarting] = useState(false);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [problem, setProblem] = useState<ActionState<never> | null>(null);

  const refreshRecent = useCallback(async () => {
    const answer = await recentResearchAction();
    if (answer.status === "success" && answer.data) setRecent(answer.data);
  }, []);

  // An answer about a job no longer on show is dropped; one that ended updates the list.
  const show = useCallback(
    (answer: ActionState<ResearchJobView>) => {
      const { data } = answer;
      if (answer.status !== "success" || !data) return setProblem({ ...answer, data: undefined });
      setProblem(null);
      setJob((current) => (current === null || current.id === data.id ? data : current));
      if (!isActive(data.status)) void refreshRecent();
    },
    [refreshRecent],
  );

  useEffect(() => {
    if (visible && recent === null) void refreshRecent();
  }, [visible, recent, refreshRecent]);

  const id = job?.id;
  const active = job !== null && isActive(job.status);
  // Each read schedules the next, also after a failed one: a blip does not stop the watching.
  useEffect(() => {
    if (!id || !active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        show(await researchJobAction(id));
      } catch {
        setProblem({ status: "error", message: "The server could not be reached; trying again." });
      }
      if (!stopped) timer = setTimeout(poll, RESEARCH_POLL_MS);
    };
    timer = setTimeout(poll, RESEARCH_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, active, show]);

  const start = useCallback(
    async (input: Record<string, unknown>) => {
      setStarting(true);
      try {
        const answer = await startResearchAction(input);
        if (answer.status === "success" && answer.data) {
          setJob(answer.data);
          setProblem(null);
          void refreshRecent();
        } else setProblem({ ...answer, data: undefined });
      } finally {
        setStarting(false);
      }
    },
    [refreshRecent],
  );

  const cancel = useCallback(async () => {
    if (!id) return;
    setCancelling(id);
    show(await cancelResearchAction(id));
  }, [id, show]);

  const open = useCallback((picked: ResearchJobView) => {
    setProblem(null);
    setJob(picked);
  }, []);

  const state: ResearchState = {
    job,
    recent,
    starting,
    cancelling: cancelling !== null && cancelling === id,
    problem,
  };
  return { state, start, cancel, open };
}
