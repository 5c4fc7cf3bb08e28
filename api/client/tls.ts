/**
 * The `ca` and `servername` options: trusting a private CA (a test server, an internal API)
 * on the client's own connections. The PEM is parsed when the client is created, so a wrong
 * file fails there with the option's name instead of as a TLS error on the first call.
 * The CAs given are trusted instead of Node's default ones, for this client only; certificate
 * checks are never switched off.
 */
import { X509Certificate } from 'node:crypto';

export type CaOption = string | Buffer | ReadonlyArray<string | Buffer>;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const PEM_PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const HOSTNAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$/;

function textOf(item: unknown, at: string): string {
  if (typeof item === 'string') return item;
  if (Buffer.isBuffer(item)) return item.toString('utf8');
  throw new TypeError(`option "${at}" must be PEM text or a Buffer holding it, got ${typeof item}`);
}

/** The PEM certificates in `ca`, each checked to parse; throws a TypeError naming the option. */
export function caCertificates(ca: CaOption): string[] {
  const items = Array.isArray(ca) ? (ca as ReadonlyArray<unknown>) : [ca];
  if (items.length === 0) throw new TypeError('option "ca" is empty: give the PEM text of the CA certificate(s)');
  const out: string[] = [];
  items.forEach((item, i) => {
    const at = items.length === 1 ? 'ca' : `ca[${i}]`;
    const text = textOf(item, at);
    const blocks = text.match(PEM_CERTIFICATE) ?? [];
    if (blocks.length === 0) {
      // Never echo the text: a pasted private key must not reach a log through this message.
      const hint = PEM_PRIVATE_KEY.test(text) ? 'holds a private key, not a certificate' : 'holds no PEM certificate (-----BEGIN CERTIFICATE-----; convert DER with: openssl x509 -inform der -in ca.der -out ca.pem)';
      throw new TypeError(`option "${at}" ${hint}`);
    }
    blocks.forEach((block, j) => {
      try {
        new X509Certificate(block);
      } catch {
        throw new TypeError(`option "${at}": certificate ${j + 1} of ${blocks.length} does not parse as X.509`);
      }
      out.push(block);
    });
  });
  return out;
}

export interface TlsSettings {
  readonly ca?: string[];
  readonly servername?: string;
}

/**
 * The TLS part of the Agent's connect options, or undefined when neither option is set.
 * Refuses them on an http base URL (nothing would use them) and next to a `dispatcher` (the
 * client does not build an Agent then).
 */
export function tlsSettings(options: { readonly ca?: CaOption | undefined; readonly servername?: string | undefined; readonly dispatcher?: unknown }, baseUrl: URL): TlsSettings | undefined {
  const { ca, servername } = options;
  if (ca === undefined && servername === undefined) return undefined;
  const which = ca === undefined ? 'servername' : 'ca';
  if (options.dispatcher !== undefined) throw new TypeError(`option "${which}" configures the client's own connections; with "dispatcher" given, set TLS on that dispatcher`);
  if (baseUrl.protocol !== 'https:') throw new TypeError(`option "${which}" needs an https baseUrl, got ${baseUrl.protocol}//${baseUrl.host}`);
  if (servername !== undefined && (typeof servername !== 'string' || !HOSTNAME.test(servername))) {
    throw new TypeError(`option "servername" must be a DNS name (sent as SNI and checked against the certificate), got ${JSON.stringify(servername)}`);
  }
  return { ...(ca === undefined ? {} : { ca: caCertificates(ca) }), ...(servername === undefined ? {} : { servername }) };
}
