// Checks docs/spec-coverage.md: every test it cites (`path › describe › test name`, in the Test(s)
// column of its § tables) must be a test that exists. The names come from the test runners themselves:
//
// - Vitest: `vitest list --json`. Its default static parse (about 1 s: the test files are read, never
//   run) is used for the files it reads exactly: every block and test named by a plain string, none
//   marked skip, todo or only, none made by `.each` or `.for`. It would leave out the skipped tests (the
//   PostgreSQL copies, so whole files of `describe.each` blocks) and show `.each` names unformatted. The
//   other files with citations are listed again with `--staticParse=false`, which imports them and
//   collects their tests as a run does (no test runs), `describe.each` and `it.each` names formatted.
// - Playwright: `playwright test --list --reporter=json` in e2e. Listing loads the spec files only: it
//   starts no web server, runs no global setup or teardown, and needs no build.
//
// The shortenings of the document ("How to read it") are applied:
// - the API route tests' outer `… on sqlite` block is left out;
// - the sign-in loop tests are cited under `sign-in loop (SQLite)` (at run time `sign-in loop (sqlite)`);
// - a file whose tests are all inside one outer block is cited without that block;
// - `{1440,1000,390}` stands for one test per value, and each of them must exist.
// Otherwise a citation is the full name: each enclosing block, outermost first, then the test's name.
//
// Prints each citation that matches no test (with its row and line) and exits 1, else a one-line summary;
// exits 2 if a runner cannot list its tests.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = 'docs/spec-coverage.md';
const SEP = ' › ';
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
const PLAYWRIGHT = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** The cited tests of the § tables' Test(s) column, each with its row and line. */
function parseCitations(markdown) {
  const citations = [];
  const malformed = [];
  markdown.split('\n').forEach((line, index) => {
    const row = /^\|\s*(\d+\.\d+)\s*\|/.exec(line);
    if (!row) return;
    const tests = line.split(/(?<!\\)\|/)[3] ?? '';
    for (const [, code] of tests.matchAll(/`([^`]+)`/g)) {
      const text = code.replaceAll('\\|', '|');
      const [file, ...names] = text.split(SEP);
      const where = { row: row[1], line: index + 1, text };
      if (TEST_FILE.test(file) && names.length > 0 && names.every(Boolean))
        citations.push({ ...where, file, names });
      else if (/\.(test|spec)\.[cm]?[jt]sx?\b/.test(text))
        malformed.push({ ...where, why: 'is not `path › test name`' });
    }
  });
  return { citations, malformed };
}

/** `shell at {1440,1000,390} px` → one name per value; a name without such a list is itself. */
function expandLists(name) {
  const list = /\{([^{}\s,]+(?:,[^{}\s,]+)+)\}/.exec(name);
  if (!list) return [name];
  const [before, after] = [name.slice(0, list.index), name.slice(list.index + list[0].length)];
  return list[1].split(',').flatMap((value) => expandLists(before + value + after));
}

function run(args, options) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${args.slice(1).join(' ')} failed:\n${stderr || stdout || error.message}`));
      else resolve();
    });
  });
}

/**
 * Adds to `names` the names the tests of one file may be cited by, each as `file`, NUL, then the blocks
 * and the test's name joined by ' > ' as Vitest joins them. `tests` are all the file's tests, each as
 * [outer block, rest] (a test outside any block: [undefined, name]). A name is split at its first ' > '
 * only: a test's own name may hold one.
 */
function addCitable(names, file, tests) {
  const outer = new Set(tests.map(([block]) => block));
  const oneBlock = outer.size === 1 && !outer.has(undefined);
  for (const [block, rest] of tests) {
    const add = (name) => names.add(`${file}\0${name}`);
    if (block === undefined) {
      add(rest);
      continue;
    }
    add(`${block} > ${rest}`);
    if (oneBlock || block.endsWith(' on sqlite')) add(rest);
    if (block === 'sign-in loop (sqlite)') add(`sign-in loop (SQLite) > ${rest}`);
  }
}

/** `outer > rest` → [outer, rest]; a name without a block → [undefined, name]. */
function splitOuter(name) {
  const at = name.indexOf(' > ');
  return at < 0 ? [undefined, name] : [name.slice(0, at), name.slice(at + 3)];
}

/**
 * Whether the static parse reads a test file exactly: it names a block or test by the source text of
 * its first argument, leaves out what is marked skip (and, beside an only, the rest), and does not
 * format `.each` or `.for` names.
 */
function readsExactly(source) {
  const call = /(?<![.\w])(?:describe|suite|it|test)(?:\.\w+)*\(\s*(\S)/g;
  const literalNames = [...source.matchAll(call)].every(([, opening]) => opening === "'" || opening === '"');
  return literalNames && !/\.(?:skip|skipIf|runIf|todo|only|each|for)\b/.test(source);
}

/** Vitest's tests, as the names they may be cited by: of the files it reads exactly if `statically`. */
async function vitestNames(work, files, statically) {
  const out = path.join(work, statically ? 'vitest-static.json' : 'vitest-collected.json');
  const args = [VITEST, 'list', `--json=${out}`];
  // isolation only matters to running tests: listing without it is several times faster
  if (!statically) args.push('--staticParse=false', '--isolate=false');
  await run([...args, ...files], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  const byFile = new Map();
  for (const test of JSON.parse(readFileSync(out, 'utf8'))) {
    const file = path.relative(ROOT, test.file);
    if (!byFile.has(file)) byFile.set(file, []);
    byFile.get(file).push(splitOuter(test.name));
  }
  const names = new Set();
  for (const [file, tests] of byFile) {
    if (!statically || readsExactly(readFileSync(path.join(ROOT, file), 'utf8'))) {
      addCitable(names, file, tests);
    }
  }
  return names;
}

/** Playwright's tests, as the names they may be cited by. */
async function playwrightNames(work) {
  const out = path.join(work, 'playwright.json');
  await run([PLAYWRIGHT, 'test', '--list', '--reporter=json'], {
    cwd: path.join(ROOT, 'e2e'),
    // the config makes a data directory for the web server unless given one, which listing never starts
    env: { ...process.env, NO_COLOR: '1', PLAYWRIGHT_JSON_OUTPUT_FILE: out, FD_E2E_DATA_DIR: work },
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  if (report.errors?.length) {
    throw new Error(`playwright test --list failed:\n${report.errors.map((e) => e.message).join('\n')}`);
  }
  const names = new Set();
  const walk = (suite, blocks, tests) => {
    for (const spec of suite.specs ?? []) {
      tests.push(
        blocks.length ? [blocks[0], [...blocks.slice(1), spec.title].join(' > ')] : [undefined, spec.title],
      );
    }
    for (const child of suite.suites ?? []) walk(child, [...blocks, child.title], tests);
    return tests;
  };
  for (const fileSuite of report.suites) {
    const file = path.relative(ROOT, path.join(report.config.rootDir, fileSuite.file));
    addCitable(names, file, walk(fileSuite, [], []));
  }
  return names;
}

/** The citations that match no test. */
async function missingCitations(citations) {
  const isE2e = (citation) => citation.file.startsWith('e2e/');
  const found = (names, { file, names: parts }) => {
    const name = parts.join(' > ');
    return names.has(`${file}\0${name}`) || expandLists(name).every((n) => names.has(`${file}\0${n}`));
  };
  const work = mkdtempSync(path.join(tmpdir(), 'check-spec-coverage-'));
  try {
    // both listings end before `work` is removed, even when one of them fails
    const listings = await Promise.allSettled([vitestNames(work, [], true), playwrightNames(work)]);
    const failed = listings.find((listing) => listing.status === 'rejected');
    if (failed) throw failed.reason;
    const [listed, e2e] = listings.map((listing) => listing.value);
    const unlisted = citations.filter((c) => !isE2e(c) && !found(listed, c));
    // a file that is not there has no tests: its citations are reported, not given to Vitest as filters
    const files = [...new Set(unlisted.map((c) => c.file))].filter((file) =>
      existsSync(path.join(ROOT, file)),
    );
    const collected = files.length > 0 ? await vitestNames(work, files, false) : new Set();
    return [
      ...unlisted.filter((c) => !found(collected, c)),
      ...citations.filter((c) => isE2e(c) && !found(e2e, c)),
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const started = performance.now();
const { citations, malformed } = parseCitations(readFileSync(path.join(ROOT, DOC), 'utf8'));
let missing;
try {
  missing = await missingCitations(citations);
} catch (error) {
  console.error(`${DOC}: the test names could not be listed, so no citation was checked.\n${error.message}`);
  process.exit(2);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const problems = [...malformed, ...missing.map((c) => ({ ...c, why: 'matches no test' }))];
if (problems.length > 0) {
  problems.sort((a, b) => a.line - b.line);
  for (const p of problems) console.error(`${DOC}:${p.line} (row ${p.row}) ${p.why}: \`${p.text}\``);
  console.error(
    `${problems.length} of ${citations.length + malformed.length} citations are wrong (${seconds} s).`,
  );
  process.exit(1);
}
const fileCount = new Set(citations.map((c) => c.file)).size;
console.info(
  `${DOC}: all ${citations.length} citations name existing tests, in ${fileCount} test files (${seconds} s).`,
);
