#!/usr/bin/env node
// The CLI is written in TypeScript and compiled to dist/ by `npm run build` (npm start, test and pack run it first; a tarball ships dist/).
// A reader that stops early (`repairmon openapi | head`): stop quietly with the status of a tool
// killed by SIGPIPE (128 + 13), as cat or git do, not with an EPIPE stack trace.
// Any other write error (a full disk: ENOSPC) is one line on stderr and status 1.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(141);
    if (stream === process.stdout) process.stderr.write(`repairmon: cannot write to standard output (${error.code ?? error.message})\n`);
    process.exit(1);
  });
}
import('../dist/cli/index.js').then(
  (cli) =>
    cli.main(process.argv.slice(2)).then((code) => {
      process.exitCode = code;
    }),
  (error) => {
    // In an installed package this means it was packed before `npm run build`.
    const installed = /[\\/]node_modules[\\/]/.test(import.meta.dirname ?? '');
    const fix = installed
      ? 'This package was packed without dist/: run "npm run build" in the checkout, then pack and install it again.'
      : 'Run "npm run build" first.';
    console.error(`repairmon: cannot load the compiled CLI (${error.message}). ${fix}`);
    process.exitCode = 1;
  },
);
