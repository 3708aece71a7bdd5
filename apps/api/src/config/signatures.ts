import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error';

export interface SignatureConfig {
  /** RFC 3161 time-stamp authority (SIGN_TSA_URL); null: none. */
  tsaUrl: string | null;
  /** The authority may be on a private address (SIGN_TSA_ALLOW_PRIVATE, else URL_TO_PDF_ALLOW_PRIVATE). */
  tsaAllowPrivate: boolean;
  /** The certificates verification trusts (SIGN_TRUST_ANCHORS), PEM; empty: none configured. */
  trustAnchors: string[];
}

/** Read the trust anchors bundle once, at start: a missing or certificate-less file stops the start naming it. */
export function loadSignatureConfig(env: {
  SIGN_TSA_URL?: string;
  SIGN_TSA_ALLOW_PRIVATE?: boolean;
  SIGN_TRUST_ANCHORS?: string;
  URL_TO_PDF_ALLOW_PRIVATE: boolean;
}): SignatureConfig {
  const file = env.SIGN_TRUST_ANCHORS;
  let trustAnchors: string[] = [];
  if (file) {
    let pem: string;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError([
        `SIGN_TRUST_ANCHORS: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      ]);
    }
    trustAnchors = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    try {
      for (const c of trustAnchors) new X509Certificate(c);
    } catch {
      throw new ConfigError([`SIGN_TRUST_ANCHORS: ${file} holds a certificate that cannot be read`]);
    }
    if (!trustAnchors.length) throw new ConfigError([`SIGN_TRUST_ANCHORS: ${file} holds no PEM certificate`]);
  }
  return {
    tsaUrl: env.SIGN_TSA_URL ?? null,
    tsaAllowPrivate: env.SIGN_TSA_ALLOW_PRIVATE ?? env.URL_TO_PDF_ALLOW_PRIVATE,
    trustAnchors,
  };
}
