// yeoman-environment looks up generators/app/index.js; the generator itself is TypeScript, compiled to dist/.
export { default } from '../../dist/generators/app/generator.js';
