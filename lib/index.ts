/** Small helpers more than one tool uses; the one file other folders import (README.md lists them). */
export {
  ALIAS_MAX_LENGTH,
  type Checked,
  type ConfigIssue,
  aliasSchema,
  decodeDocument,
  formatIssues,
  formatPath,
  issuesFromZod,
  parseWith,
  readDocument,
} from './config-kit.js';
export { type Logger, type LoggerOptions, REDACT_PATHS, createLogger } from './logger.js';
export { type RequestOrigin, crossSite, hostName, isLoopback, notLocal } from './loopback.js';
export { OUR_PACKAGE_NAME, packageRoot, packageVersion, toolUserAgent } from './package-root.js';
export { plainHttpProxyWarning, proxyOptions, proxyRoute, toolAgent } from './proxy-route.js';
export { hasKeyPrefix, looksLikeSecret, shownPath, shownValue } from './secret-shape.js';
export { type Align, type TableOptions, renderTable, wrap } from './table.js';
export { MAX_DEPTH, MAX_EXPANDED_VALUES, decodeYaml } from './yaml-document.js';
