#!/usr/bin/env node
// The CLI is written in TypeScript and compiled to dist/ by `npm run build` (npm start, test and pack run it first; a tarball ships dist/).
// A reader that stops early (`repairmon openapi | head`): stop quietly with the status of a tool
// killed by SIGPIPE (128 + 13), as cat or git do, not with an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(141);
  });
}
import('../dist/cli/index.js').then(
  (cli) =>
    cli.main(process.argv.slice(2)).then((code) => {
      process.exitCode = code;
    }),
  (error) => {
    console.error(`repairmon: cannot load the compiled CLI (${error.message}). Run "npm run build" first.`);
    process.exitCode = 1;
  },
);
