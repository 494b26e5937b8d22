// Run before the server, the CLI and the tests (npm pre-scripts): plain JavaScript that any Node can
// read, so an older Node gets this sentence instead of a crash in a native module built for Node 24.
const required = Number(
  (await import('node:fs')).readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim(),
);
const major = Number(process.versions.node.split('.')[0]);
if (major < required) {
  console.error(
    `Frontdoor needs Node ${required} or newer; this is Node ${process.versions.node}.\n` +
      `With nvm, fnm or mise: \`nvm use\` (or \`fnm use\`, \`mise use node@${required}\`) reads .nvmrc.\n` +
      `Without one: \`source scripts/node24.sh\` installs Node ${required} from the npm registry for this shell.`,
  );
  process.exit(1);
}
