import type { FastifyInstance } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JobRow } from '../../services/jobs/types';

/** Text and JSON results up to this size come back as text; larger ones as a link, as files do. */
export const MAX_TEXT_BYTES = 1_048_576;
/** File results up to this size also come back embedded (base64) beside their link. */
export const MAX_EMBEDDED_BYTES = 1_048_576;

const isText = (contentType: string) => /^(text\/|application\/(json|xml)|[^;]*\+json)/i.test(contentType);

async function readResult(app: FastifyInstance, id: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await app.jobs.store.openResult(id)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/**
 * A tool call's answer from the job that ran it: an error as the v1 call's message; text and JSON as text; a file as
 * a link to the job's result (downloaded with the same key, kept until the job expires), embedded when small.
 */
export async function jobResult(app: FastifyInstance, job: JobRow): Promise<CallToolResult> {
  const link = `${app.config.publicUrl}/api/v1/jobs/${job.id}/result`;
  const r = job.result;
  if (job.status === 'queued' || job.status === 'running' || !r) {
    return {
      content: [
        {
          type: 'text',
          text: `Job ${job.id} is ${job.status}. Its status is at ${app.config.publicUrl}/api/v1/jobs/${job.id} and its result, once it ends, at ${link} (send the same API key); give {"jobId": "${job.id}"} as a file input to use its result in another tool.`,
        },
      ],
    };
  }
  if (r.statusCode >= 400)
    return errorResult(`${job.errorCode ?? 'ERROR'}: ${job.errorMessage ?? `the call failed (HTTP ${r.statusCode})`}`);
  if (isText(r.contentType) && r.size <= MAX_TEXT_BYTES)
    return { content: [{ type: 'text', text: (await readResult(app, job.id)).toString('utf8') }] };
  const name = r.fileName ?? 'result';
  const about = `${name} (${r.contentType}, ${r.size} bytes${r.pages === null ? '' : `, ${r.pages} pages`})`;
  const content: CallToolResult['content'] = [
    {
      type: 'text',
      text: `Result: ${about}. Download it from ${link} with the same API key (kept ${app.config.JOB_RESULT_TTL_HOURS} h); give {"jobId": "${job.id}"} as a file input to use it in another tool.`,
    },
    { type: 'resource_link', uri: link, name, mimeType: r.contentType, size: r.size },
  ];
  if (r.size <= MAX_EMBEDDED_BYTES)
    content.push({
      type: 'resource',
      resource: { uri: link, mimeType: r.contentType, blob: (await readResult(app, job.id)).toString('base64') },
    });
  return { content };
}
