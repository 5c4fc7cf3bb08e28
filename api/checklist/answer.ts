/** Step 4 of the spec's checklist: the response status and the error payload, in one line. */
import type { AttemptResult } from '../client/single-attempt.js';
import { printable } from '../contract/index.js';

/**
 * `HTTP 403 tenant_key_tenant_mismatch "…" (request id r-1)`, or why no HTTP answer came. Code,
 * message and request id are the server's: printed with control characters escaped.
 */
export function describeAnswer(result: AttemptResult): string {
  if (result.kind === 'failure')
    return printable(
      `no HTTP answer: ${result.failure.kind} ${'code' in result.failure ? `${result.failure.code} ` : ''}(${result.failure.message})`,
    );
  const c = result.classification;
  const code = 'code' in c && c.code !== undefined ? ` ${c.code}` : '';
  const message = 'message' in c && c.message !== undefined ? ` "${c.message}"` : '';
  const problem = c.kind === 'invalid_envelope' ? ` invalid envelope: ${c.detail}` : '';
  const id = result.requestId ? ` (request id ${result.requestId})` : '';
  return printable(`HTTP ${result.status}${code}${message}${problem}${id}`);
}
