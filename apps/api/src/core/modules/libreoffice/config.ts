import os from 'node:os';
import { z } from 'zod';

/** `LIBREOFFICE_<KEY>` settings. */
export const ZLibreOfficeConfig = z.object({
  BIN: z.string().min(1).default('soffice'),
  /** A Python with the `uno` module: Debian's, not a pyenv one first on PATH (ENGINE-NOTES). */
  PYTHON: z.string().min(1).default('/usr/bin/python3'),
  /**
   * soffice processes converting at once. Two on 2 cores give 1.9× the throughput of one; more than the cores only adds waiting
   * (ENGINE-NOTES).
   */
  INSTANCES: z.coerce
    .number()
    .int()
    .min(1)
    .max(32)
    .default(Math.max(1, Math.min(2, os.availableParallelism()))),
  /**
   * Instances kept running while the server is idle (at most INSTANCES); the others start when every running one is
   * busy and stop after IDLE_MS without a conversion. Each soffice holds ~90 MB.
   */
  WARM_INSTANCES: z.coerce.number().int().min(1).max(32).default(1),
  /** Time an instance beyond WARM_INSTANCES may stay idle before it stops; 0: never. */
  IDLE_MS: z.coerce.number().int().min(0).default(30_000),
  /** Conversions an instance does before it is replaced (it grows ~1.3 MB a conversion). */
  MAX_JOBS: z.coerce.number().int().min(1).default(200),
  /** Resident size of soffice past which it is replaced between jobs; 0: no limit. */
  MAX_RSS_MB: z.coerce.number().int().min(0).default(600),
  /**
   * Resident size soffice may reach while it converts one document; past it the conversion is stopped as the
   * document's (a few hundred bytes of repeated cells can ask for gigabytes) and the instance replaced. 0: no limit.
   */
  JOB_MEMORY_MB: z.coerce.number().int().min(0).default(1024),
  /** Time a conversion may take; 0: the server's PROCESSING_TIMEOUT_MS. */
  TIMEOUT_MS: z.coerce.number().int().min(0).default(0),
  /** Time soffice may take to start and accept its connection. */
  STARTUP_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
});
export type LibreOfficeConfig = z.infer<typeof ZLibreOfficeConfig>;
