/** The Polish error messages the sandbox sends (spec §2: messages are in Polish). */
import type { ErrorCode } from '../api/contract/index.js';

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

export function messageFor(code: ErrorCode, detail?: string): string {
  return detail ? `${MESSAGES[code]} ${detail}` : MESSAGES[code];
}
