import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '../../config/storage';
import { checkedJobId, JobFileMissing, type JobStore } from './store';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

// An upload holds at most PART_SIZE × PARTS_AT_ONCE of a file in memory, whatever its size (5 MiB is S3's smallest part).
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

/**
 * Jobs' files in a bucket of an S3-compatible store, one key per file under `<prefix><jobId>/`. Files are streamed
 * (a multipart upload past one part); an object appears whole when its upload completes, so a rerun's second write
 * simply replaces the first, as the local store's rename does.
 */
export class S3JobStore implements JobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: Omit<S3Config, 'kind'>) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // Checksums only where S3 requires them: the SDK's newer default (a CRC trailer on every upload) is refused by
      // many S3-compatible stores.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(jobId: string, file: string): string {
    return `${this.prefix}${checkedJobId(jobId)}/${file}`;
  }

  private async write(key: string, from: Readable): Promise<number> {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted },
      partSize: PART_SIZE,
      queueSize: PARTS_AT_ONCE,
    });
    try {
      // A failed upload is aborted by lib-storage (no parts left behind); a failed source fails the upload.
      await Promise.all([pipeline(from, counted), upload.done()]);
    } catch (err) {
      counted.destroy();
      from.destroy();
      throw err;
    }
    return size;
  }

  private async open(key: string): Promise<Readable> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if (err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404))
        throw new JobFileMissing(key, { cause: err });
      throw err;
    }
  }

  putInput(jobId: string, index: number, from: Readable) {
    return this.write(this.key(jobId, `input/${index}`), from);
  }
  openInput(jobId: string, index: number) {
    return this.open(this.key(jobId, `input/${index}`));
  }
  putResult(jobId: string, from: Readable) {
    return this.write(this.key(jobId, 'result'), from);
  }
  openResult(jobId: string) {
    return this.open(this.key(jobId, 'result'));
  }

  async remove(jobId: string) {
    const Prefix = this.key(jobId, '');
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length) {
        const res = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        const failed = res.Errors ?? [];
        if (failed.length)
          throw new Error(`could not delete ${failed.map((e) => `${e.Key} (${e.Code})`).join(', ')} of job ${jobId}`);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  close(): void {
    this.client.destroy();
  }

  async ping(): Promise<void> {
    // The bucket is there and the keys open it; changes nothing.
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}
