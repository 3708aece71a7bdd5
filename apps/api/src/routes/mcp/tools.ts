import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TEndpointGroup } from '@docflow/contracts';
import type { EndpointRegistry, ProcessingEndpoint } from '../../endpoints/processing-endpoint';

/** `/conversion/html-to-pdf` → `conversion_html_to_pdf`: MCP tool names take letters, digits, `_` and `-`. */
export const toolName = (path: string) => path.replace(/^\//, '').replace(/[/-]/g, '_');

/** How a file is given to a tool: one of a URL, base64 bytes, or a finished job's result. */
const fileInputSchema = (description: string) => ({
  type: 'object',
  description: `${description}. Give one of: "url" (fetched by the server, public addresses only), "base64" (with "filename"; small files), or "jobId" (the result of one of your finished jobs, e.g. an earlier tool call's).`,
  properties: {
    url: { type: 'string', format: 'uri', description: 'http(s) URL of the file' },
    base64: { type: 'string', description: 'The file itself, base64-encoded' },
    jobId: { type: 'string', format: 'uuid', description: "A finished job's id: its result is the file" },
    filename: {
      type: 'string',
      description: 'File name with its extension (required with base64; tells the format, e.g. report.docx)',
    },
  },
  additionalProperties: false,
});

/** The tool of an endpoint: its fields' JSON Schema (as the API reference has them) plus its file inputs. */
export function endpointTool(endpoint: ProcessingEndpoint): Tool {
  const { $schema: _schema, ...fields } = z.toJSONSchema(endpoint.fields, { io: 'input', unrepresentable: 'any' }) as {
    $schema?: string;
    properties?: Record<string, object>;
    required?: string[];
  };
  const properties: Record<string, object> = { ...fields.properties };
  const required = [...(fields.required ?? [])];
  const spec = endpoint.files;
  if (endpoint.body === 'multipart' && spec.max > 0) {
    const what = spec.description || `The input ${endpoint.noun ?? 'PDF'}`;
    properties[spec.field] =
      spec.field === 'files'
        ? { type: 'array', items: fileInputSchema(what), minItems: spec.min, maxItems: spec.max, description: what }
        : fileInputSchema(what);
    if (spec.min > 0) required.push(spec.field);
    for (const [k, d] of Object.entries(spec.extra ?? {})) properties[k] = fileInputSchema(d);
  }
  return {
    name: toolName(endpoint.path),
    title: endpoint.summary,
    description: [endpoint.summary, endpoint.description].filter(Boolean).join('\n\n'),
    inputSchema: { ...fields, type: 'object', properties, ...(required.length ? { required } : {}) },
  };
}

/** Every processing endpoint of the server, by tool name: the list is the v1 routes', never a hand list. */
export function toolsOf(endpoints: EndpointRegistry): Map<string, ProcessingEndpoint> {
  return new Map([...endpoints.values()].map((e) => [toolName(e.path), e]));
}

/** The file inputs of an endpoint's call: its file field (one or several) and its extra files, by field. */
export function fileFieldsOf(endpoint: ProcessingEndpoint): string[] {
  if (endpoint.body === 'json' || endpoint.files.max === 0) return [];
  return [endpoint.files.field, ...Object.keys(endpoint.files.extra ?? {})];
}

/** A processing endpoint and its tool, built once: what tools/list filters per key and tools/call looks up. */
export interface ToolEntry {
  endpoint: ProcessingEndpoint;
  tool: Tool;
}

/** Every endpoint's tool entry, by tool name. */
export function toolEntriesOf(endpoints: EndpointRegistry): Map<string, ToolEntry> {
  return new Map([...toolsOf(endpoints)].map(([name, endpoint]) => [name, { endpoint, tool: endpointTool(endpoint) }]));
}

/**
 * The tools a key is shown: those of the endpoint groups its plan (or custom limits) holds. An agent offered a tool it
 * may not call spends a turn on the refusal; the call itself is still gated (a hidden tool called by name is refused).
 */
export function toolsAllowed(entries: Map<string, ToolEntry>, allowed: readonly TEndpointGroup[]): Tool[] {
  return [...entries.values()].filter((e) => allowed.includes(e.endpoint.group)).map((e) => e.tool);
}
