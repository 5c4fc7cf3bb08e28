/**
 * The folder's entry: what the CLI's `new`, `upgrade`, `openapi` and `sandbox` take from the
 * generator (its flags, answers and refusals). Not `index.ts`: yeoman-environment's lookup
 * takes `generators/index.*` for the `repair-service` generator itself, which is `app/index.js`.
 * Nothing here loads yeoman-generator or handlebars, so `repairmon openapi` and `sandbox` run
 * where the generator is not installed.
 */
export { DEFAULT_ENV_PREFIX, PLACEHOLDER_PRODUCTION_BASE_URL } from './app/answers.js';
export { readStoredAnswers } from './app/destination.js';
export { ANSWER_FLAGS, RUN_FLAGS, flagDescription, unknownFlags } from './app/flags.js';
export { GENERATOR_EXIT, generatorExitCode, isGeneratorRefusal } from './app/refusal.js';
