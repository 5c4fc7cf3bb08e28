/** One valid set of answers, for tests that render templates without running the generator. */
import type { Answers } from '../../generators/app/answers.js';

export const SAMPLE_ANSWERS: Answers = {
  name: 'p',
  packageName: 'p',
  tenant: 'rowery-nowak',
  authScheme: 'bearer',
  testBaseUrl: 'http://127.0.0.1:4010/api/v1',
  productionBaseUrl: 'https://a.example/api/v1',
  envPrefix: 'RS',
  githubActions: false,
  pagination: false,
  parse: false,
};
