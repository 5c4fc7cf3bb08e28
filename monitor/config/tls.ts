/**
 * Turning a target's `tls: { caFile, serverName }` into the CA text its connections trust.
 * The file is read and parsed at (re)load, so a missing or garbled CA is a config error with
 * its path, not a stream of tls_error probes later.
 */
import { X509Certificate } from 'node:crypto';
import { DOCUMENT_FILE_MAX_BYTES, shownPath, userFileProblem } from '../../lib/index.js';
import type { RawTarget } from './schema.js';
import { type SecretSources, readRelative } from './secrets.js';
import type { ConfigIssue, TargetTls } from './types.js';

type TlsResult = { readonly ok: true; readonly tls: TargetTls | undefined } | { readonly ok: false; readonly issue: ConfigIssue };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Why the text is not a usable CA bundle, or undefined when every certificate in it parses. */
function caProblem(text: string): string | undefined {
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) return 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)';
  for (const [i, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch {
      return `certificate ${i + 1} of ${blocks.length} does not parse`;
    }
  }
  return undefined;
}

export function resolveTls(raw: RawTarget['tls'], path: string, sources: SecretSources): TlsResult {
  if (raw === undefined) return { ok: true, tls: undefined };
  const at = `${path}.caFile`;
  const { file, read } = readRelative(raw.caFile, sources, DOCUMENT_FILE_MAX_BYTES);
  if (!read.ok) return { ok: false, issue: { path: at, message: userFileProblem('CA file', shownPath(raw.caFile, file), read) } };
  const { text } = read;
  const problem = caProblem(text);
  if (problem) return { ok: false, issue: { path: at, message: `CA file ${shownPath(raw.caFile, file)} ${problem}` } };
  return { ok: true, tls: { ca: text, caFile: file, serverName: raw.serverName } };
}
