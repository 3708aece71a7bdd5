/** The error body every DocFlow error answers with (`ErrorResponse` in the OpenAPI document). */
export interface DocFlowErrorBody {
  success?: false;
  error?: string;
  code?: string;
  requestId?: string;
  details?: unknown;
}

/** A DocFlow answer outside 2xx: its status, machine code, message and request id. */
export class DocFlowError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId?: string;
  readonly details?: unknown;
  /** The answer, its body already read. */
  readonly response?: Response;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string;
    details?: unknown;
    response?: Response;
  }) {
    super(init.message);
    this.name = 'DocFlowError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.response = init.response;
  }

  /** The error of an answer outside 2xx, from its JSON body when it has one (a proxy's page has not: HTTP_<status>). */
  static async fromResponse(response: Response): Promise<DocFlowError> {
    let body: DocFlowErrorBody | undefined;
    const text = await response.text().catch(() => '');
    try {
      body = JSON.parse(text) as DocFlowErrorBody;
    } catch {
      body = undefined;
    }
    return DocFlowError.fromBody(response, body, text);
  }

  static fromBody(response: Response, body: unknown, text = ''): DocFlowError {
    const b = typeof body === 'object' && body !== null ? (body as DocFlowErrorBody) : {};
    return new DocFlowError({
      status: response.status,
      code: b.code ?? `HTTP_${response.status}`,
      message: b.error ?? (text.trim().slice(0, 200) || `${response.status} ${response.statusText}`.trim()),
      requestId: b.requestId ?? response.headers.get('x-request-id') ?? undefined,
      details: b.details,
      response,
    });
  }
}
