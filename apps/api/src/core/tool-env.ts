import { lstatSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { shareWithToolsSync, type ToolUser } from './tool-user';

/**
 * What the tools take from the server's own environment: where programs are, and the font configuration when the
 * operator set one. Read with the rest of the configuration (config/engines.ts) and passed in.
 */
export interface ToolEnvBase {
  PATH?: string;
  FONTCONFIG_PATH?: string;
  FONTCONFIG_FILE?: string;
}

/**
 * The environment every external tool starts with. Not the server's: that holds the JWT secret, the database, Redis
 * and SMTP URLs and the first owner's password, and a converter fed a hostile document (a spreadsheet formula, a
 * PostScript operator, a page's script) could read and send its own environment. Only what the tools need: where
 * programs are, a home and a temp folder of their own (fontconfig keeps its cache there), a UTF-8 locale, and the
 * font path when the operator set one (a ToolEnvBase, given in `extra` like the per-call settings, e.g. tesseract's
 * thread limit).
 */
export function toolEnv(
  extra: Record<string, string | undefined> = {},
  runAs?: ToolUser | null,
): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: toolHome(runAs),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

const homes = new Map<string, string>();
/**
 * One home per account the tools run as, outside the server user's own (its dotfiles stay unread), owned by that
 * account (fontconfig and LibreOffice write there).
 */
function toolHome(runAs?: ToolUser | null): string {
  const owner = String(runAs?.uid ?? process.getuid?.() ?? 'user');
  let home = homes.get(owner);
  if (!home) {
    home = path.join(os.tmpdir(), `docflow-tools-home-${owner}`);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    // Never through a link someone planted at that name (root would hand its target to the tools' account).
    const st = lstatSync(home);
    if (!st.isDirectory()) throw new Error(`${home} is not a folder`);
    // Already the account's (the tool host, which may not chown, finds it so: the server made it first).
    if (runAs && st.uid !== runAs.uid) shareWithToolsSync(home, runAs);
    homes.set(owner, home);
  }
  return home;
}
