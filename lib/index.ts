/** Small helpers more than one tool uses: what other folders import (README.md says what each is). */
export { type ConfigIssue, aliasSchema, decodeDocument, formatIssues, parseWith, readDocument } from './config-kit.js';
export { createLogger } from './logger.js';
export { type RequestOrigin, crossSite, hostName, isLoopback, notLocal } from './loopback.js';
export { OUR_PACKAGE_NAME, packageRoot, packageVersion, toolUserAgent } from './package-root.js';
export { plainHttpProxyWarning, proxyOptions, proxyRoute, toolAgent } from './proxy-route.js';
export { hasKeyPrefix, looksLikeSecret, shownPath, shownValue } from './secret-shape.js';
export { type Align, helpRows, renderTable, wrap } from './table.js';
