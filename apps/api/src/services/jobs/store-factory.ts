import type { StorageConfig } from '../../config/storage';
import { LocalJobStore, type JobStore } from './store';

/**
 * The job store the configuration names: the local folder, or an S3-compatible bucket (STORAGE_URL). The S3 client is
 * loaded only for the bucket: its modules cost a server that never uses it ~0.1 s of start.
 */
export async function createJobStore(config: StorageConfig): Promise<JobStore> {
  if (config.kind !== 's3') return new LocalJobStore(config.dir);
  const { S3JobStore } = await import('./s3-store');
  return new S3JobStore(config);
}
