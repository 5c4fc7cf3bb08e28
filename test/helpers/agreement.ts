/** The client's error class (or `success`) -> the monitor's outcome for the same answer. */
export const CLIENT_MONITOR_AGREEMENT: Readonly<Record<string, string>> = {
  success: 'ok',
  AuthenticationError: 'unauthorized',
  TenantMismatchError: 'tenant_key_tenant_mismatch',
  InsufficientScopeError: 'forbidden',
  PermissionDeniedError: 'forbidden',
  NotFoundError: 'unexpected_status',
  RateLimitError: 'rate_limited',
  ServerError: 'server_error',
  EnvelopeError: 'invalid_envelope',
  ConnectionError: 'connection_error',
  TimeoutError: 'timeout',
  ApiError: 'unexpected_status',
};
