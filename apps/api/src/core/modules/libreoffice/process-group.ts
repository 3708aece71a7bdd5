import { readFile } from 'node:fs/promises';

/** SIGKILL a whole process group (the helper leads it; soffice's wrapper and soffice.bin are in it). */
export function killGroup(pgid: number | undefined): void {
  if (!pgid) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Resident set size of one process in bytes (0 when it is gone or /proc is unavailable). */
export async function rssBytes(pid: number | undefined): Promise<number> {
  if (!pid) return 0;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}
