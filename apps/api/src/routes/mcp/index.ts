import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { parseFields, type ProcessingEndpoint } from '../../endpoints/processing-endpoint';
import { toAppError } from '../../plugins/error-handler';
import type { DeferredGuard } from '../../plugins/processing-guard';
import { requestSignal } from '../../plugins/request-signal';
import { effectiveLimits } from '../../services/api-keys/index';
import { admitCall } from '../v1/processing-door';
import { MAX_BASE64_BYTES, receiveFiles } from './inputs';
import { errorResult, jobResult } from './results';
import { fileFieldsOf, toolEntriesOf, toolsAllowed, type ToolEntry } from './tools';

/**
 * How long a tool call waits for its job. A call still running then is answered with its job's links (its result is
 * kept, and can be given to another tool by its id) rather than held open past what MCP clients wait.
 */
const WAIT_MS = 5 * 60_000;

/** One JSON-RPC message a request, base64 files included: the body a call may send. */
const BODY_LIMIT = Math.ceil((MAX_BASE64_BYTES * 4) / 3) + 1_048_576;

/** A tool's arguments as the v1 form's text fields: what a job stores, and what the endpoint's schema coerces. */
function formFields(args: Record<string, unknown>, skip: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    // async and callbackUrl are the v1 door's: an MCP call is answered when its job ends.
    if (skip.includes(k) || k === 'async' || k === 'callbackUrl' || v === undefined || v === null) continue;
    fields[k] = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return fields;
}

/**
 * A tool call: through the gate as the v1 call of its endpoint (plan group, limits, then its fields and files
 * checked), stored as that endpoint's job (run, metered and given back on a server failure by the jobs system), and
 * answered from the job's result. A refusal is the call's error result, metered with its status as v1 meters it.
 */
async function callTool(
  app: FastifyInstance,
  guard: DeferredGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: ProcessingEndpoint,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    await guard.admit(request, reply, endpoint.group, endpoint.path);
    const route = `/api/v1${endpoint.path}`;
    let id: string;
    if (endpoint.body === 'json') {
      parseFields(endpoint.fields, args);
      const { async: _async, callbackUrl: _callback, ...body } = args;
      id = await app.jobs.enqueue(request, { route, fields: {}, files: [], body });
    } else {
      const fileFields = fileFieldsOf(endpoint);
      const files = [];
      for (const f of fileFields) files.push(...(await receiveFiles(app, request, f, args[f])));
      request.usage.bytesIn = files.reduce((n, f) => n + f.size, 0);
      const fields = formFields(args, fileFields);
      await admitCall(app, request, reply, endpoint, { fields, files });
      id = await app.jobs.enqueue(request, { route, fields, files });
    }
    const job = await app.jobs.ended(id, WAIT_MS, requestSignal(reply));
    return job ? await jobResult(app, job) : errorResult(`JOB_NOT_FOUND: job ${id} was removed before it ended`);
  } catch (err) {
    const error = toAppError(err);
    const state = request.apiKeyState!;
    state.callStatus = error.statusCode;
    state.errorCode = error.code;
    if (error.statusCode >= 500) request.log.error({ err }, 'MCP tool call failed');
    return errorResult(`${error.code}: ${error.message}`);
  }
}

/** The request as the SDK's Web-standard transport takes it (the body is given parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(request.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (Array.isArray(v)) for (const one of v) headers.append(k, one);
  }
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers });
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP (stateless: a server and transport per request, JSON
 * answers). Every processing endpoint is a tool (routes/mcp/tools.ts), listed to the keys whose plan holds its
 * group, called with the same API keys and through the same gate as its v1 route (`app.deferredGuard`: the key as
 * the request comes, the plan and limits per call).
 */
export const mcpRoutes: FastifyPluginAsync = async (app) => {
  const guard = app.deferredGuard();
  let entries: Map<string, ToolEntry> | null = null;
  // Built on first use: the endpoints are registered by the v1 routes, which may load after this plugin.
  const tools = () => (entries ??= toolEntriesOf(app.endpoints));

  function serverFor(request: FastifyRequest, reply: FastifyReply): McpServer {
    const mcp = new McpServer(
      { name: 'docflow', title: 'DocFlow', version: '1.0.0' },
      {
        capabilities: { tools: { listChanged: false } },
        instructions:
          'Document processing: conversions to PDF, PDF operations, OCR, QR codes. Give files as {"url"}, {"base64", "filename"} or {"jobId"} (an earlier result). File results come back as a link to a job result (download it with the same API key) and embedded when small.',
      },
    );
    // Listed per key (the hooks authenticated it): the groups its plan holds, as the plan gate reads them.
    mcp.server.setRequestHandler(ListToolsRequestSchema, async () => {
      const rec = request.apiKeyState!.rec!;
      return { tools: toolsAllowed(tools(), effectiveLimits(rec.plan, rec.customLimits).allowedEndpoints) };
    });
    mcp.server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const endpoint = tools().get(params.name)?.endpoint;
      if (!endpoint) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      return callTool(app, guard, request, reply, endpoint, params.arguments ?? {});
    });
    return mcp;
  }

  app.route({
    method: 'POST',
    url: '/mcp',
    ...guard.hooks,
    bodyLimit: BODY_LIMIT,
    schema: { hide: true },
    handler: async (request, reply) => {
      // One message a request: the request's gate state is that of its one tool call.
      if (Array.isArray(request.body))
        return reply.code(400).send({
          jsonrpc: '2.0',
          error: { code: ErrorCode.InvalidRequest, message: 'Send one JSON-RPC message per request (no batches)' },
          id: null,
        });
      const mcp = serverFor(request, reply);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await mcp.connect(transport);
      try {
        const res = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
        reply.code(res.status);
        res.headers.forEach((v, k) => void reply.header(k, v));
        const body = await res.text();
        return reply.send(body === '' ? undefined : body);
      } finally {
        await mcp.close();
      }
    },
  });
  // Stateless: no stream to open (GET) and no session to end (DELETE); the transport's clients expect a 405.
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header('Allow', 'POST')
        .send({ jsonrpc: '2.0', error: { code: ErrorCode.ConnectionClosed, message: 'Method not allowed' }, id: null }),
  });
};
