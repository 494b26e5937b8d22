import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser } from '@playwright/test';
import { adminOf } from '../fixtures/admin.ts';
import { uniqueEmail, STRONG_PASSWORD } from '../fixtures/emails.ts';
import { CHROMIUM_LAUNCH, REPO_ROOT } from '../fixtures/env.ts';
import { answerStudentQuestion, continueWithEmail, signInWithPassword } from '../fixtures/flows.ts';
import { freePort, waitForReady } from '../fixtures/server.ts';
import { en } from '../fixtures/text.ts';

const PUBLIC_HOST = 'login.example.test';
const PRODUCT_ORIGIN = 'https://product.example.test';

/** A self-signed certificate for PUBLIC_HOST (Debian's openssl), in `dir`. */
function selfSignedCertificate(dir: string): { key: Buffer; cert: Buffer } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${PUBLIC_HOST}`,
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/**
 * A TLS proxy as nginx is often set up: it sends its upstream's host (nginx's default without
 * `proxy_set_header Host $host`), appends X-Forwarded-For, says https, and passes on whatever else
 * the client sent (an X-Forwarded-Host included).
 */
function tlsProxy(tls: { key: Buffer; cert: Buffer }, upstreamPort: number) {
  return https.createServer(tls, (req, res) => {
    const headers = {
      ...req.headers,
      host: `127.0.0.1:${upstreamPort}`,
      'x-forwarded-proto': 'https',
      'x-forwarded-for': req.socket.remoteAddress ?? '',
    };
    const upstream = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}

// DEPLOYMENT.md's setup: a production start on plain HTTP, PUBLIC_URL https, TLS at a proxy in front
test.describe('a production start behind a TLS proxy (PUBLIC_URL https)', () => {
  test.describe.configure({ timeout: 120_000 });
  let dir = '';
  let server: ChildProcess | undefined;
  let proxy: https.Server | undefined;
  let browser: Browser | undefined;
  test.afterAll(async () => {
    await browser?.close();
    proxy?.close();
    if (server?.exitCode === null) server.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('signs in by password through the authorization server and returns to the product', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fd-tls-'));
    const tls = selfSignedCertificate(dir);
    const port = await freePort();
    const serverEnv = {
      APP_ENV: 'production',
      SECRET: randomBytes(32).toString('base64'),
      // nothing is mailed in this test; production refuses to start without an SMTP server
      SMTP_URL: 'smtp://127.0.0.1:1',
      MAIL_FROM: 'Frontdoor <no-reply@example.test>',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `https://${PUBLIC_HOST}`,
      TRUST_PROXY: '1',
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
    };
    let output = '';
    server = spawn(process.execPath, ['apps/api/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...serverEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForReady(`http://127.0.0.1:${port}`, server, () => output);
    const proxyPort = await freePort();
    proxy = tlsProxy(tls, port);
    await new Promise<void>((resolve) => proxy?.listen(proxyPort, '127.0.0.1', resolve));

    const email = uniqueEmail('tls');
    await adminOf(
      serverEnv,
      undefined,
      'sp',
      'create',
      '--id',
      'tls',
      '--name',
      'Math',
      '--origin',
      PRODUCT_ORIGIN,
    );
    await adminOf(
      serverEnv,
      STRONG_PASSWORD,
      'user',
      'create',
      '--email',
      email,
      '--first',
      'Kid',
      '--last',
      'One',
      '--set-password',
    );
    const returnUrl = `${PRODUCT_ORIGIN}/welcome`;
    const { csrf } = await adminOf<{ csrf: string }>(
      serverEnv,
      undefined,
      'login',
      'create',
      '--sp',
      'tls',
      '--url',
      returnUrl,
    );

    browser = await chromium.launch({
      ...CHROMIUM_LAUNCH,
      args: [
        ...(CHROMIUM_LAUNCH.args ?? []),
        `--host-resolver-rules=MAP ${PUBLIC_HOST}:443 127.0.0.1:${proxyPort}`,
      ],
    });
    const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-US' });
    // the product itself: a page that says where the browser arrived
    await context.route(`${PRODUCT_ORIGIN}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Product</title><h1>Product</h1>' }),
    );
    const page = await context.newPage();
    await page.goto(`https://${PUBLIC_HOST}/log-in/${csrf}`);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(page, email);
    await signInWithPassword(page, email, STRONG_PASSWORD);
    // the code exchange with its own authorization server went through: the session is the product's
    await expect(page).toHaveURL(`https://${PUBLIC_HOST}/post-login/${csrf}`);
    await answerStudentQuestion(page, true);
    await expect(page).toHaveURL(returnUrl);
    await expect(page.getByRole('heading', { name: 'Product' })).toBeVisible();
    expect(output).not.toMatch(/code exchange failed/);
  });
});
