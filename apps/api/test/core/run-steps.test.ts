import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engines } from '../../src/core/engines';
import { EngineError } from '../../src/core/errors';
import { runSteps, type Step, type StepMeasure } from '../../src/core/operations/run-steps';
import { createJob, out, type PdfJob } from '../../src/core/operations/pdf/job';
import { createWorkspace, type Workspace } from '../../src/core/workspace';

/**
 * The one step runner of the pipeline, Gotenberg's finishing and the batch: steps are plain functions here (each
 * appends its name to a text file), so order, measures, error wrapping and cancellation are seen in the files and
 * the measures themselves. The doors' own tests run it over the real engines.
 */
const workspaces: Workspace[] = [];
afterEach(async () => {
  await Promise.all(workspaces.splice(0).map((w) => w.dispose()));
});

async function jobWith(signal?: AbortSignal): Promise<PdfJob> {
  const ws = await createWorkspace(os.tmpdir(), null);
  workspaces.push(ws);
  // No step here reaches an engine.
  return createJob({} as Engines, ws, { signal, maxPages: null });
}

async function inputOf(job: PdfJob, text: string) {
  const path = job.ws.file('input.txt');
  await writeFile(path, text);
  return { path, filename: 'input.txt', size: Buffer.byteLength(text) };
}

/** A step writing its input's text followed by `tag` to a new file; `pages` told as its output's. */
const append = (tag: string, pages?: number): Step => ({
  label: tag,
  async run(job, input) {
    const path = out(job, `${tag}.txt`);
    await writeFile(path, `${await readFile(input.path, 'utf8')}${tag}`);
    return { path, name: `${tag}.txt`, pages };
  },
});

describe('runSteps', () => {
  it('runs the steps in order, each on the output before it, and answers the last output', async () => {
    const job = await jobWith();
    const seen: string[] = [];
    const spy = (s: Step): Step => ({
      ...s,
      run: (j, input, notes) => (seen.push(`${s.label}<${input.filename}`), s.run(j, input, notes)),
    });
    const r = await runSteps(job, await inputOf(job, 'in:'), [spy(append('a')), spy(append('b')), spy(append('c'))]);
    expect(await readFile(r.output.path, 'utf8')).toBe('in:abc');
    expect(r.output.name).toBe('c.txt');
    // Every step sees the input's name, whatever file it works on.
    expect(seen).toEqual(['a<input.txt', 'b<input.txt', 'c<input.txt']);
    expect(r.file).toMatchObject({ path: r.output.path, filename: 'input.txt', size: 6 });
    expect(r.output.path.startsWith(job.ws.dir)).toBe(true);
  });

  it('measures each step: bytes in and out, pages told or noted, time taken', async () => {
    const job = await jobWith();
    const noting: Step = {
      label: 'noting',
      async run(j, input, notes) {
        notes.pages = 7;
        return append('n').run(j, input, notes);
      },
    };
    const live: Array<[number, string]> = [];
    const r = await runSteps(job, await inputOf(job, '1234'), [append('aa', 3), noting, append('b')], {
      measured: (m, i) => live.push([i, m.label]),
    });
    expect(r.measures).toEqual([
      { label: 'aa', durationMs: expect.any(Number), bytesIn: 4, bytesOut: 6, pages: 3 },
      { label: 'noting', durationMs: expect.any(Number), bytesIn: 6, bytesOut: 7, pages: 7 },
      { label: 'b', durationMs: expect.any(Number), bytesIn: 7, bytesOut: 8, pages: null },
    ]);
    for (const m of r.measures) expect(m.durationMs).toBeGreaterThanOrEqual(0);
    expect(live).toEqual([
      [0, 'aa'],
      [1, 'noting'],
      [2, 'b'],
    ]);
    // Pages told by an earlier step are carried over to the file when a later one tells none.
    expect(r.file.pages).toBe(3);
    expect(r.output.pages).toBeUndefined();
  });

  it('no step: the input itself', async () => {
    const job = await jobWith();
    const input = { ...(await inputOf(job, 'x')), pages: 2 };
    const r = await runSteps(job, input, []);
    expect(r.output).toEqual({ path: input.path, name: 'input.txt', pages: 2 });
    expect(r.file).toBe(input);
    expect(r.measures).toEqual([]);
  });

  it("a failing step stops the run; the caller's wrapping names it, its measure keeps the error and noted pages", async () => {
    const job = await jobWith();
    const refused = new EngineError('INVALID_INPUT', 'pages: no page 9');
    const failing: Step = {
      label: 'extract',
      async run(_j, _input, notes) {
        notes.pages = 3;
        throw refused;
      },
    };
    const after = append('never');
    const measures: StepMeasure[] = [];
    const err = await runSteps(job, await inputOf(job, 'in'), [append('a'), failing, after], {
      wrapError: (e, step, index) => new Error(`stages[${index}] (${step.label}): ${(e as Error).message}`),
      measured: (m) => measures.push(m),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('stages[1] (extract): pages: no page 9');
    expect(measures.map((m) => m.label)).toEqual(['a', 'extract']);
    expect(measures[1]).toMatchObject({ bytesIn: 3, bytesOut: null, pages: 3, error: refused });
    expect(measures[0]!.error).toBeUndefined();
  });

  it('without a wrapping, the error is thrown as it is', async () => {
    const job = await jobWith();
    const refused = new EngineError('INVALID_PDF', 'not a PDF');
    const failing: Step = {
      label: 'x',
      run: async () => {
        throw refused;
      },
    };
    await expect(runSteps(job, await inputOf(job, 'in'), [failing])).rejects.toBe(refused);
  });

  it('a cancelled job stops before the next step with ABORTED, not wrapped', async () => {
    const controller = new AbortController();
    const job = await jobWith(controller.signal);
    const cancelling: Step = {
      label: 'cancel',
      async run(j, input, notes) {
        const o = await append('c').run(j, input, notes);
        controller.abort();
        return o;
      },
    };
    let ranAfter = false;
    const after: Step = {
      label: 'after',
      run: async (j, input, notes) => ((ranAfter = true), append('after').run(j, input, notes)),
    };
    let wrapped = false;
    const err = await runSteps(job, await inputOf(job, 'in'), [cancelling, after], {
      wrapError: (e) => ((wrapped = true), e),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('ABORTED');
    expect(ranAfter).toBe(false);
    expect(wrapped).toBe(false);
  });

  it('an already cancelled job runs no step', async () => {
    const controller = new AbortController();
    controller.abort();
    const job = await jobWith(controller.signal);
    let ran = false;
    const step: Step = { label: 's', run: async (j, i, n) => ((ran = true), append('s').run(j, i, n)) };
    await expect(runSteps(job, await inputOf(job, 'in'), [step])).rejects.toMatchObject({ code: 'ABORTED' });
    expect(ran).toBe(false);
  });
});
