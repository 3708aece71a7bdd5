import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { EngineError } from '../errors';
import { checkUrl, type CheckUrlOptions } from '../net/public-address';
import { OID, type TimeStamper } from './cms';

const toArrayBuffer = (b: Buffer): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** Largest answer read from a time-stamp authority: a token with its certificates is a few KB. */
const MAX_ANSWER = 256 * 1024;

const unavailable = (why: string, cause?: unknown) =>
  new EngineError('TSA_UNAVAILABLE', `The time-stamp authority gave no time-stamp: ${why}`, { cause });

/** POST the query to the address that was checked (a name re-resolving elsewhere between check and connect reaches nothing). */
function post(
  url: string,
  body: Buffer,
  rules: CheckUrlOptions,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  return checkUrl(url, rules).then(
    (checked) =>
      new Promise<Buffer>((resolve, reject) => {
        const pinned = checked.addresses[0]!;
        const lookup: LookupFunction = (_host, options, cb) => {
          if ((options as { all?: boolean }).all)
            (cb as unknown as (e: null, a: (typeof checked.addresses)[number][]) => void)(null, [pinned]);
          else cb(null, pinned.address, pinned.family);
        };
        const client = checked.url.protocol === 'https:' ? https : http;
        const req = client.request(
          checked.url,
          {
            method: 'POST',
            lookup,
            timeout: timeoutMs,
            signal,
            headers: { 'content-type': 'application/timestamp-query', 'content-length': body.length },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (c: Buffer) => {
              size += c.length;
              if (size > MAX_ANSWER) {
                req.destroy();
                reject(unavailable('its answer is too large'));
              } else chunks.push(c);
            });
            res.on('end', () => {
              if (res.statusCode !== 200) reject(unavailable(`it answered HTTP ${res.statusCode}`));
              else resolve(Buffer.concat(chunks));
            });
            res.on('error', (err) => reject(unavailable('the answer broke off', err)));
          },
        );
        req.on('timeout', () => {
          req.destroy();
          reject(unavailable(`no answer within ${timeoutMs} ms`));
        });
        req.on('error', (err) => reject(unavailable('it could not be reached', err)));
        req.end(body);
      }),
  );
}

/**
 * The nonce's bytes as a DER INTEGER's content must be: positive (high bit clear) and minimal (no leading zero
 * byte), or a strict TSA such as OpenSSL's refuses the whole request as badly formed. The top byte is forced into
 * 0x40–0x7f, which keeps 62 random bits.
 */
export function nonceBytes(random: Buffer): Buffer {
  const nonce = Buffer.from(random);
  nonce[0] = (nonce[0]! & 0x3f) | 0x40;
  return nonce;
}

/**
 * An RFC 3161 client of the operator's time-stamp authority: a SHA-256 imprint with a nonce, the TSA's certificate
 * asked for, the answer's status, imprint and nonce checked; the token (a CMS ContentInfo) is returned as DER.
 */
export function timeStamperFor(
  url: string,
  rules: CheckUrlOptions,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): TimeStamper {
  return async (imprint) => {
    const nonce = nonceBytes(randomBytes(8));
    const req = new pkijs.TimeStampReq({
      version: 1,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
        hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(imprint) }),
      }),
      nonce: new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
      certReq: true,
    });
    const answer = await post(url, Buffer.from(req.toSchema().toBER()), rules, opts.timeoutMs ?? 15_000, opts.signal);
    let resp: pkijs.TimeStampResp;
    try {
      resp = pkijs.TimeStampResp.fromBER(toArrayBuffer(answer));
    } catch (err) {
      throw unavailable('its answer is not a time-stamp response', err);
    }
    const status = resp.status.status;
    if ((status !== 0 && status !== 1) || !resp.timeStampToken) {
      throw unavailable(`it refused the request (status ${status})`);
    }
    const signed = new pkijs.SignedData({ schema: resp.timeStampToken.content });
    const tst = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent!.getValue());
    const got = Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
    const gotNonce = tst.nonce ? Buffer.from(tst.nonce.valueBlock.valueHexView) : null;
    const big = (b: Buffer) => BigInt(`0x${b.toString('hex') || '0'}`);
    if (!got.equals(imprint) || !gotNonce || big(gotNonce) !== big(nonce)) {
      throw unavailable('its token is not for this request');
    }
    return Buffer.from(resp.timeStampToken.toSchema().toBER());
  };
}
