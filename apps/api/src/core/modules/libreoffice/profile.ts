import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { shareWithTools, type ToolUser } from '../../tool-user';

/** Every profile dir starts with this, so an operator (or a test) can find the processes of this engine. */
export const PROFILE_PREFIX = 'docflow-lo-';

/**
 * A fresh, private LibreOffice profile dir. Instances never share one: four conversions sharing a profile lost half
 * their outputs (ENGINE-NOTES). The security settings are applied over UNO once soffice runs (uno-helper.py) and
 * read back, rather than written into the profile beforehand.
 */
export async function createProfileDir(toolUser?: ToolUser | null): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), PROFILE_PREFIX));
  await shareWithTools(dir, toolUser);
  return dir;
}

export async function removeProfileDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
}

/** The socket file UNO's pipe connector leaves behind when soffice is killed. */
export async function removePipeFile(name: string, toolUser?: ToolUser | null): Promise<void> {
  const uid = toolUser?.uid ?? process.getuid?.() ?? 0;
  await rm(path.join('/tmp', `OSL_PIPE_${uid}_${name}`), { force: true }).catch(() => undefined);
}
