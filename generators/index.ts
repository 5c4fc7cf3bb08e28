/**
 * What the CLI's `new`, `upgrade`, `openapi` and `sandbox` take from the generator: its flags,
 * answers and refusals. Yeoman itself loads `app/index.js`; nothing here loads yeoman-generator
 * or handlebars, so `repairmon openapi` and `sandbox` run where the generator is not installed.
 */
export { DEFAULT_ENV_PREFIX, PLACEHOLDER_PRODUCTION_BASE_URL } from './app/answers.js';
export { readStoredAnswers } from './app/destination.js';
export { ANSWER_FLAGS, RUN_FLAGS } from './app/flags.js';
export { isGeneratorRefusal } from './app/refusal.js';
