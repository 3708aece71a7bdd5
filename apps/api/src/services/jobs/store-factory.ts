import type { StorageConfig } from '../../config/storage';
import { S3JobStore } from './s3-store';
import { LocalJobStore, type JobStore } from './store';

/** The job store the configuration names: the local folder, or an S3-compatible bucket (STORAGE_URL). */
export function createJobStore(config: StorageConfig): JobStore {
  return config.kind === 's3' ? new S3JobStore(config) : new LocalJobStore(config.dir);
}
