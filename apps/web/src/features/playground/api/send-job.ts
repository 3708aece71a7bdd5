import { createDocFlowClient, JobWaitError, type TJob } from '@docflow/client';
import type { CallPlan } from '../utils/request-plan';
import { callApi, noAnswer, readAnswer, type PlaygroundResponse } from './send-request';

/** A job is read this often while it runs: its progress bar moves at that pace. */
export const JOB_POLL_MS = 1_000;
/** Past this the page stops following (the job goes on; the Jobs page still shows it). */
export const JOB_FOLLOW_MS = 15 * 60_000;

export interface PlaygroundJobOutcome {
  /** The answer shown: the refusal when no job was made (400, 401, 429…), else the job's result. */
  response: PlaygroundResponse;
  /** The job as last read; absent when the call was refused. */
  job?: TJob;
}

/** The key the call carries (x-api-key, or Bearer for the JSON routes): the same key reads its job. */
function keyOf(plan: CallPlan): string {
  const headers = new Map(plan.headers.map(([n, v]) => [n.toLowerCase(), v]));
  return headers.get('x-api-key') ?? headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '';
}

/**
 * Send the call with async=true and follow the job it makes: `onJob` is told each time the job is read (status,
 * progress), and when it ends its result is read like a synchronous answer (the file, its JSON, or a failed job's
 * error answer with its status). A call the server refuses makes no job: its answer is shown as it is.
 */
export async function sendPlaygroundJob(
  plan: CallPlan,
  opts: {
    signal?: AbortSignal;
    onJob?: (job: TJob) => void;
    intervalMs?: number;
    createObjectUrl?: (b: Blob) => string;
  } = {},
): Promise<PlaygroundJobOutcome> {
  const started = performance.now();
  const signal = opts.signal ?? new AbortController().signal;
  const elapsed = () => Math.round(performance.now() - started);
  let job: TJob | undefined;
  try {
    const accepted = await callApi({ ...plan, asJob: true }, signal);
    if (accepted.status !== 202) return { response: await readAnswer(accepted, plan, { started, ...opts }) };
    const { data } = (await accepted.json()) as { data: { jobId: string } };
    const client = createDocFlowClient({
      baseUrl: new URL(plan.jobsUrl, window.location.origin).origin,
      apiKey: keyOf(plan),
      credentials: 'omit',
      retry: false,
    });
    try {
      job = await client.waitForJob(data.jobId, {
        intervalMs: opts.intervalMs ?? JOB_POLL_MS,
        timeoutMs: JOB_FOLLOW_MS,
        signal,
        onProgress: (j) => {
          job = j;
          opts.onJob?.(j);
        },
      });
    } catch (err) {
      // A failed or cancelled job still has a result to show: its error answer.
      if (!(err instanceof JobWaitError) || err.code === 'JOB_WAIT_TIMEOUT') throw err;
    }
    const result = await fetch(`${plan.jobsUrl}/${encodeURIComponent(data.jobId)}/result`, {
      headers: { 'x-api-key': keyOf(plan) },
      credentials: 'omit',
      signal,
    });
    return { response: await readAnswer(result, plan, { started, ...opts }), job };
  } catch (err) {
    if (signal.aborted) throw err;
    return { response: noAnswer(elapsed()), job };
  }
}
