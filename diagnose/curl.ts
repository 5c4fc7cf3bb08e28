/**
 * Step 5 of the spec's checklist for support: the checklist's own curl line, with the key read
 * from `$REPAIR_API_KEY` (the variable support is told to set) and the probe's timeout.
 */
import { curlCommand } from '../api/checklist/index.js';
import type { AuthScheme } from '../api/contract/index.js';

export const KEY_ENV_VAR = 'REPAIR_API_KEY';

export interface CurlRequest {
  readonly method: 'GET';
  readonly url: string;
  readonly auth: AuthScheme | 'none';
  readonly timeoutS?: number;
}

export function curlLine(request: CurlRequest): string {
  return curlCommand({ url: request.url, auth: request.auth, keyVariable: KEY_ENV_VAR, timeoutS: request.timeoutS });
}
