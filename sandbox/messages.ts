/** The Polish error messages the sandbox sends (spec §2: messages are in Polish). */
import type { ErrorCode } from '../api/contract/index.js';
import type { Refusal, RefusalAnswer } from '../api/contract/server/index.js';

export const MESSAGES: Readonly<Record<ErrorCode, string>> = {
  unauthorized: 'Nieprawidłowy, unieważniony lub brakujący klucz API.',
  tenant_key_tenant_mismatch: 'Klucz najemcy jest przypisany do innego najemcy niż ten w ścieżce.',
  insufficient_scope: 'Zakres klucza nie obejmuje tego zasobu.',
  platform_key_required: 'Ścieżki /platform/ są dostępne wyłącznie dla kluczy platformy.',
  rate_limited: 'Przekroczono limit żądań dla tego klucza. Spróbuj ponownie później.',
  not_found: 'Nie znaleziono zasobu.',
  method_not_allowed: 'Niedozwolona metoda HTTP. API obsługuje wyłącznie GET.',
  invalid_tenant_slug: 'Nieprawidłowy identyfikator najemcy w ścieżce.',
  bad_request: 'Nieprawidłowe żądanie HTTP.',
  internal_error: 'Wewnętrzny błąd serwera.',
};

const FORBIDDEN_MESSAGE = 'Brak uprawnień do tego zasobu.';

export function messageFor(code: ErrorCode, detail?: string): string {
  return detail ? `${MESSAGES[code]} ${detail}` : MESSAGES[code];
}

/**
 * The message of a refusal. A refusal answered as `not_found` reads exactly like a missing
 * resource, with no detail, so the message cannot give away what the status hides.
 */
export function refusalMessage(refusal: Refusal, answer: RefusalAnswer, detail?: string): string {
  if (answer.code === 'not_found') return MESSAGES.not_found;
  switch (refusal) {
    case 'missing_key':
    case 'invalid_key':
      return messageFor('unauthorized', detail);
    case 'tenant_mismatch':
      return MESSAGES.tenant_key_tenant_mismatch;
    case 'scope':
      return answer.code === 'insufficient_scope' ? MESSAGES.insufficient_scope : FORBIDDEN_MESSAGE;
    case 'platform_refused':
      return MESSAGES.platform_key_required;
  }
}
