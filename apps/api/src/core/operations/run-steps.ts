import { stat } from 'node:fs/promises';
import { aborted } from '../limiter';
import type { OutputFile, PdfJob, SourceFile } from './pdf/job';

/**
 * One file through ordered steps, each step's output the next one's input, every file in the job's workspace: the
 * one chaining of the pipeline's stages, Gotenberg's finishing and a batch's files. Transport-free: a door tells
 * what a failed step means to its caller (`wrapError`) and what it does with the measures.
 */

/** The file a step works on: the run's input, then each output under the input's name. */
export interface StepFile extends SourceFile {
  /** Its pages, when known: the last output's that told them, or the input's as the caller gave them. */
  pages?: number;
}

/** What a step may note while it runs: the pages it counted, kept in its measure even when it then fails. */
export interface StepNotes {
  pages?: number;
}

export interface Step {
  /** Names the step in its measure and for the caller's error wrapping (a pipeline's stage, a finishing's step). */
  label: string;
  run(job: PdfJob, input: StepFile, notes: StepNotes): Promise<OutputFile>;
}

export interface StepMeasure {
  label: string;
  durationMs: number;
  bytesIn: number;
  /** The output's size; null when the step failed. */
  bytesOut: number | null;
  /** The output's pages, or those the step noted; null when neither is known. */
  pages: number | null;
  /** The step's failure as it was thrown (before the caller's wrapping); absent when it succeeded. */
  error?: unknown;
}

export interface StepsOptions {
  /** A step's failure as the caller tells it (the pipeline names its stage); by default thrown as it is. */
  wrapError?(err: unknown, step: Step, index: number): unknown;
  /** Told as each step ends, succeeded or failed: a caller metering live keeps what ran before a failure. */
  measured?(measure: StepMeasure, index: number): void;
}

export interface StepsResult {
  /** The last step's output as it gave it (with no step: the input). */
  output: OutputFile;
  /** The same output as a file for more work: the input's name, its size, its pages (carried over when untold). */
  file: StepFile;
  measures: StepMeasure[];
}

/**
 * Runs `steps` in order over `input`. A cancelled job (its signal aborted) stops before the next step with the core's
 * ABORTED error, never wrapped (a client that left is told nothing); the steps' engines stop on the same signal.
 */
export async function runSteps(
  job: PdfJob,
  input: StepFile,
  steps: readonly Step[],
  opts: StepsOptions = {},
): Promise<StepsResult> {
  const measures: StepMeasure[] = [];
  let file: StepFile = input;
  let output: OutputFile = { path: input.path, name: input.filename, pages: input.pages };
  for (const [index, step] of steps.entries()) {
    if (job.signal?.aborted) throw aborted();
    const measure: StepMeasure = { label: step.label, durationMs: 0, bytesIn: file.size, bytesOut: null, pages: null };
    measures.push(measure);
    const notes: StepNotes = {};
    const started = performance.now();
    try {
      output = await step.run(job, file, notes);
      const size = (await stat(output.path)).size;
      measure.bytesOut = size;
      measure.pages = output.pages ?? notes.pages ?? null;
      file = { path: output.path, filename: input.filename, size, pages: output.pages ?? file.pages };
    } catch (err) {
      measure.error = err;
      measure.pages = notes.pages ?? null;
      throw opts.wrapError ? opts.wrapError(err, step, index) : err;
    } finally {
      measure.durationMs = performance.now() - started;
      opts.measured?.(measure, index);
    }
  }
  return { output, file, measures };
}
