import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { EngineError } from '../errors';

/** A private key with its certificate and the chain the PKCS#12 file carried, ready to sign with. */
export interface SigningIdentity {
  key: KeyObject;
  certificate: X509Certificate;
  /** The other certificates of the file (intermediates, root), embedded in the signature for verifiers. */
  chain: X509Certificate[];
}

const derOf = (asn1: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');

const invalid = (message: string, cause?: unknown) =>
  new EngineError('INVALID_CERTIFICATE', `certificate: ${message}`, { details: { field: 'certificate' }, cause });

/**
 * Open a PKCS#12 (.p12/.pfx) file: node-forge reads the modern (PBES2, AES, SHA-256 MAC) and the legacy (3DES, RC2)
 * forms; keys and certificates forge cannot model (EC) are taken from their ASN.1 and handed to node:crypto.
 */
export function readPkcs12(file: Buffer, password: string): SigningIdentity {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(file.toString('binary')), false);
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const msg = err instanceof Error ? err.message : '';
    if (/MAC could not be verified|Invalid password|pad block|decrypt/i.test(msg)) {
      throw new EngineError(
        'CERTIFICATE_PASSWORD_WRONG',
        'password: the password does not open this PKCS#12 certificate file',
        { details: { field: 'password' }, cause: err },
      );
    }
    throw invalid('not a PKCS#12 (.p12, .pfx) file holding a private key and its certificate', err);
  }
  const bagsOf = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBags = [...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(forge.pki.oids.keyBag!)];
  const keyBag = keyBags[0];
  if (!keyBag) throw invalid('the PKCS#12 file holds no private key');
  const key = keyBag.key
    ? createPrivateKey(forge.pki.privateKeyToPem(keyBag.key))
    : createPrivateKey({ key: derOf(keyBag.asn1), format: 'der', type: 'pkcs8' });
  const certs = bagsOf(forge.pki.oids.certBag!).map(
    (b) => new X509Certificate(b.cert ? derOf(forge.pki.certificateToAsn1(b.cert)) : derOf(b.asn1)),
  );
  const certificate = certs.find((c) => c.checkPrivateKey(key));
  if (!certificate) throw invalid('no certificate in the PKCS#12 file matches its private key');
  return { key, certificate, chain: certs.filter((c) => c !== certificate) };
}

/** A certificate outside its validity period signs nothing a verifier accepts: refused before any work. */
export function assertCurrentlyValid(cert: X509Certificate, now = new Date()): void {
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (now > to || now < from) {
    const expired = now > to;
    throw new EngineError(
      'CERTIFICATE_EXPIRED',
      expired
        ? `certificate: the signing certificate expired on ${to.toISOString()}`
        : `certificate: the signing certificate is valid only from ${from.toISOString()}`,
      { details: { field: 'certificate', validFrom: from.toISOString(), validTo: to.toISOString() } },
    );
  }
}

/** The CN of an X.509 name as node:crypto prints it ("CN=Jane\nO=Acme"). */
export function commonNameOf(name: string): string | null {
  const m = /(?:^|\n)CN=([^\n]*)/.exec(name);
  return m ? m[1]! : null;
}
