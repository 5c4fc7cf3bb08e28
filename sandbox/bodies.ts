/**
 * The body of an answer the readings send as plain text (`bodyForm` in the contract's server
 * side says which): the status text, as a proxy or framework sends by default.
 */
import { STATUS_CODES } from 'node:http';

/** `Unauthorized`, `Too Many Requests`. */
export function plainText(status: number): string {
  return STATUS_CODES[status] ?? String(status);
}
