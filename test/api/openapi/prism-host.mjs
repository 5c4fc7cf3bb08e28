// Several `prism proxy` commands in one Node process, for prism-matrix.test.ts: a Prism's start-up
// is mostly loading its modules (some 3 CPU s each), and the matrix needs one per document. Each
// argv (argv[2] is a JSON array of them) goes through the CLI's own `proxy` command and yargs, as
// `prism proxy ...` would run it: the same options, defaults, document loading and server. One
// line says when all listen (a failing one exits 1 with its error, as the CLI does).
import { createRequire } from 'node:module';

const prismRequire = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'));
const yargs = prismRequire('yargs/yargs');
const proxy = prismRequire('@stoplight/prism-cli/dist/commands/proxy').default;

const listening = JSON.parse(process.argv[2]).map(
  (argv) =>
    new Promise((done) => {
      const command = { ...proxy, handler: (args) => proxy.handler(args).then(done) };
      yargs(argv).strict().command(command).demandCommand(1, '').parse();
    }),
);
await Promise.all(listening);
console.log('prism-host: all listening');
