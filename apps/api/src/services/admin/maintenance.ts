import { eq } from 'drizzle-orm';
import type { TMaintenanceState } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { systemSettings } from '../../data/schema/index';
import { recordAudit } from '../accounts/audit';
import type { AdminContext } from './context';

const KEY = 'maintenance';
const OFF: TMaintenanceState = { enabled: false, message: null, since: null, by: null, retryAfterSeconds: 600 };

/**
 * Maintenance mode, shared by every node through the database. The processing guard reads `current()` on each call,
 * which costs nothing: the state is held in memory and re-read in the background at most every `refreshMs`, so
 * another node's switch reaches this one within that time and this node's own switch at once.
 */
export class MaintenanceSwitch {
  private state: TMaintenanceState = OFF;
  private readAt = 0;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly refreshMs = 2000,
  ) {}

  /** The state now (refreshing it in the background when stale). */
  current(now = Date.now()): TMaintenanceState {
    if (now - this.readAt > this.refreshMs && !this.reading)
      this.reading = this.load().finally(() => (this.reading = null));
    return this.state;
  }

  /** The state read from the database (for the admin API and the public status route). */
  async read(): Promise<TMaintenanceState> {
    await this.load();
    return this.state;
  }

  private async load(): Promise<void> {
    try {
      const [row] = await this.db.select().from(systemSettings).where(eq(systemSettings.key, KEY));
      this.state = row ? { ...OFF, ...(row.value as Partial<TMaintenanceState>) } : OFF;
      this.readAt = Date.now();
    } catch {
      // Keep the last known state: a database hiccup must neither open nor close the service by itself.
    }
  }

  async set(
    ctx: AdminContext,
    input: { enabled: boolean; message?: string; retryAfterSeconds: number },
  ): Promise<TMaintenanceState> {
    const state: TMaintenanceState = input.enabled
      ? {
          enabled: true,
          message: input.message || 'Maintenance en cours : le traitement des documents reprend bientôt.',
          since: new Date().toISOString(),
          by: ctx.actor.id,
          retryAfterSeconds: input.retryAfterSeconds,
        }
      : { ...OFF, retryAfterSeconds: input.retryAfterSeconds };
    await ctx.db
      .insert(systemSettings)
      .values({ key: KEY, value: state, updatedBy: ctx.actor.id })
      .onConflictDoUpdate({
        target: systemSettings.key,
        set: { value: state, updatedBy: ctx.actor.id, updatedAt: new Date() },
      });
    this.state = state;
    this.readAt = Date.now();
    await recordAudit(ctx.db, {
      userId: ctx.actor.id,
      action: input.enabled ? 'admin.maintenance.on' : 'admin.maintenance.off',
      ip: ctx.ip,
      target: { type: 'system', id: KEY },
      details: { message: state.message },
    });
    return state;
  }
}
