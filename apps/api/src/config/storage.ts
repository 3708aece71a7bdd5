/** A bucket of an S3-compatible object store, as STORAGE_URL names it. */
export interface S3Location {
  bucket: string;
  /** Prepended to every key ('' or ending in '/'): several deployments may share one bucket. */
  prefix: string;
  /** The store's address (MinIO, Ceph, R2, …); none: AWS S3 itself. */
  endpoint?: string;
  region: string;
  /** `http://host/bucket/key` rather than `http://bucket.host/key`: what most self-hosted stores need. */
  forcePathStyle: boolean;
}

/** Where jobs' inputs and results are kept; every node that may run a job must reach the same one. */
export type StorageConfig =
  | { kind: 'local'; dir: string }
  | (S3Location & { kind: 's3'; credentials?: { accessKeyId: string; secretAccessKey: string } });

// S3's own bucket naming rules: a wrong name is told at start, not at the first job.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PARAMS = new Set(['endpoint', 'region', 'forcePathStyle']);

/**
 * `s3://bucket[/prefix]?endpoint=http://host:9000&region=us-east-1&forcePathStyle=true`. Throws an Error whose
 * message says what is wrong (the caller names the variable). Credentials are refused in the URL: they come from
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or the SDK's usual sources), so the URL can be shown and logged.
 */
export function parseStorageUrl(raw: string): S3Location {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('not a URL (expected s3://bucket?endpoint=http://host:9000)');
  }
  if (url.protocol !== 's3:') throw new Error(`scheme ${url.protocol} is not supported: only s3://bucket`);
  if (url.username || url.password)
    throw new Error('credentials do not go in the URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const bucket = url.hostname;
  if (!BUCKET.test(bucket)) throw new Error(`"${bucket}" is not a bucket name (3-63 of a-z, 0-9, "." and "-")`);
  if (url.port) throw new Error('a port belongs to the endpoint parameter, not to the bucket');
  const unknown = [...url.searchParams.keys()].filter((k) => !PARAMS.has(k));
  if (unknown.length) throw new Error(`unknown parameter ${unknown.join(', ')} (known: ${[...PARAMS].join(', ')})`);

  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint))
    throw new Error(`endpoint "${endpoint}" is not an http(s)://host[:port] address`);
  const style = url.searchParams.get('forcePathStyle');
  if (style !== null && style !== 'true' && style !== 'false') throw new Error('forcePathStyle: true or false');
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    bucket,
    prefix: path ? `${path}/` : '',
    endpoint: endpoint?.replace(/\/$/, ''),
    region: url.searchParams.get('region') || 'us-east-1',
    forcePathStyle: style === null ? endpoint !== undefined : style === 'true',
  };
}
