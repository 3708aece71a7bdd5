import type { ConvertOperations } from './operations/convert/interfaces';
import type { OcrOperations } from './operations/ocr/interfaces';
import type { PdfOperations } from './operations/pdf/interfaces';
import type { QrOperations } from './operations/qr/interfaces';
import type { ToolAccount } from './tool-user';

/**
 * The operations of the processing core, one small interface each (files in, files out). An engine module
 * implements the ones it can; the chain for an operation is built from the engines that implement it, in the
 * configured order. Paths are files inside the request's workspace; pages are 1-based. Each area declares its
 * operations' interfaces beside them (core/operations/<area>/interfaces.ts); this file holds what they share.
 */

export interface OpContext {
  /** Cancelled when the client goes away: tools are killed, queued work leaves the queue. */
  signal?: AbortSignal;
  /** A scratch directory of the request (inside its workspace) for intermediate files. */
  scratch: string;
  /**
   * The account the request's workspace is leased to (core/tool-accounts.ts), leased when its first tool gets a
   * processing slot: its tools run as it, and no other request's can. Unset: the runner's base account, which can
   * reach no workspace (health checks, tests).
   */
  runAs?: ToolAccount;
}

/** Every operation, by the name of its one method. */
export interface Operations extends PdfOperations, QrOperations, ConvertOperations, OcrOperations {}
export type OperationName = keyof Operations;
/** The function of operation K (e.g. `Merger['merge']`). */
export type OperationFn<K extends OperationName> = Operations[K] extends Record<K, infer F> ? F : never;

/** What a long-lived engine reports about its processes, for the system monitor. */
export interface EngineStatus {
  /** 'degraded': it works but lost a process recently or has one gone; 'error': it cannot work now. */
  state: 'ok' | 'degraded' | 'error';
  details: Record<string, number | string | boolean | null>;
  /** Why it is not ok. */
  problem?: string;
}

/** An engine instance: its id plus whichever operations it implements. */
export type Engine = {
  readonly id: string;
  /** Stop what the engine keeps running (pooled processes, a browser). */ close?(): Promise<void>;
  /** Live state of its pooled processes (engines that keep some). */
  status?(): EngineStatus;
  /**
   * Start what it keeps running ahead of the first job (engines that keep processes); settles when they are up or
   * failed to start. A job arriving meanwhile waits for the process being started rather than starting another.
   */
  warm?(): Promise<void>;
} & Partial<{
  [K in OperationName]: OperationFn<K>;
}>;
