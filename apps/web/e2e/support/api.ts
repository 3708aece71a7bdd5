import { createDocFlowClient, DocFlowError, type DocFlowClient } from '@docflow/client';

/**
 * The tests' direct API calls go through @docflow/client, as an integrator's would: typed paths and bodies, the key
 * in x-api-key, the dashboard token as Bearer. No retries: a test sees the status the server answered.
 */
export function apiClient(baseUrl: string, auth: { apiKey?: string; accessToken?: string } = {}): DocFlowClient {
  return createDocFlowClient({ baseUrl, ...auth, retry: false });
}

/** The data of a `{ success, data }` answer, or the server's error thrown (with its status and code). */
export function dataOf<T>(answer: { data?: { data: T }; error?: unknown; response: Response }, what: string): T {
  if (answer.data) return answer.data.data;
  const error = DocFlowError.fromBody(answer.response, answer.error);
  error.message = `${what}: ${error.status} ${error.code}: ${error.message}`;
  throw error;
}

/** A dashboard access token for the account, as /auth/login gives it. */
export async function accessTokenOf(baseUrl: string, email: string, password: string): Promise<string> {
  const login = await apiClient(baseUrl).api.POST('/api/v1/auth/login', { body: { email, password } });
  return dataOf(login, `login ${email}`).tokens.accessToken;
}

/** Follow an e-mail verification link through the API (what the page behind the link calls). */
export async function verifyByLink(baseUrl: string, link: string): Promise<void> {
  const token = new URL(link).searchParams.get('token') ?? '';
  const res = await apiClient(baseUrl).api.GET('/api/v1/auth/verify-email', { params: { query: { token } } });
  dataOf(res, 'verify-email');
}
