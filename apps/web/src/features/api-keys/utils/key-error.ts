import { ApiError, fieldErrors } from '@/lib/api-client';
import { toast } from '@/lib/toast';

/**
 * Spec-2 §8: a key error shows the server's `error` field, else its `message`, else the French default. A call that
 * never reached the server keeps the client's own wording ('Erreur de connexion', the timeout text).
 */
function keyErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? (err.status === 0 ? err.message : fallback);
  return fallback;
}

/** Toast a key error, except an expired session: the API client already said 'Session expirée…'. */
export function toastKeyError(err: unknown, fallback: string, id?: string): void {
  if (err instanceof ApiError && err.status === 401) return;
  // A refused field is shown beside it by the form.
  if (Object.keys(fieldErrors(err)).length > 0) return;
  if (id) toast.error(keyErrorMessage(err, fallback), { id });
  else toast.error(keyErrorMessage(err, fallback));
}
