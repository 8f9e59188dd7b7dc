// Browser tests of the account page: a real unitd binary ($UNITD_BIN) on a
// free loopback port with a temporary store, driven by Debian's Chromium
// through playwright-core. The whole rotation sequence of the
// specification, then the failures: wrong password, a POST without the CSRF
// token, another account's key id in the URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { chromium } from 'playwright-core';

const bin = process.env.UNITD_BIN;
const shotsDir = process.env.UNITD_SCREENSHOTS || '';
const password = 'correct horse battery staple';

let dir, store, base, server, serverLog = '', browser;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// cli runs a unitd command on the test store and returns its stdout.
function cli(...args) {
  return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

// until polls fn until it returns true or ms have passed.
async function until(what, ms, fn) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// convert calls the API with key and returns the HTTP status.
async function convert(key) {
  const r = await fetch(`${base}/v1/convert?value=12.5&from=ft&to=m`, { headers: { Authorization: `Bearer ${key}` } });
  await r.arrayBuffer();
  return r.status;
}

let adaLink, bobKeyId, bobKey;

before(async () => {
  assert.ok(bin, 'UNITD_BIN must name the unitd binary (make e2e sets it)');
  dir = mkdtempSync(path.join(tmpdir(), 'unitd-e2e-account-'));
  store = path.join(dir, 'unitd.db');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  cli('accounts', 'create', '--store', store, 'Acme');
  adaLink = cli('users', 'create', '--store', store, '--account', 'Acme', '--url', base, 'ada@example.com');
  cli('accounts', 'create', '--store', store, 'Beta');
  bobKey = cli('keys', 'create', '--store', store, '--account', 'Beta', '--name', 'beta backend');
  bobKeyId = JSON.parse(cli('keys', 'list', '--store', store, '--account', 'Beta', '--format', 'json'))[0].id;

  server = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--admin-addr', '127.0.0.1:0', '--store', store, '--env', 'test'], { stdio: ['ignore', 'ignore', 'pipe'] });
  server.stderr.on('data', (d) => { serverLog += d; });
  await until('unitd answers /v1/health', 20000, async () => {
    try { return (await fetch(`${base}/v1/health`)).ok; } catch { return false; }
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  if (shotsDir) mkdirSync(shotsDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (server) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// shot saves a screenshot when UNITD_SCREENSHOTS names a directory.
async function shot(page, name, fullPage = false) {
  if (shotsDir) await page.screenshot({ path: path.join(shotsDir, name), fullPage });
}

// newPage opens a page that records CSP violations and script errors.
async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.problems = [];
  // Expected 401/404 answers log "Failed to load resource"; anything else
  // (a CSP violation, a script error) is a problem.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) page.problems.push(m.text());
  });
  page.on('pageerror', (e) => page.problems.push(String(e)));
  return page;
}

test('set up, sign in, create, use, rotate and revoke keys, read the audit log', async () => {
  const page = await newPage();

  // The one-time set-up link from `unitd users create`.
  await page.goto(adaLink);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('The same password again').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL(`${base}/account?ready=1`);
  assert.match(await page.textContent('main'), /Your password is set/);
  assert.equal(await page.getByLabel('E-mail address').inputValue(), 'ada@example.com', 'the sign-in form after the set-up has the address filled in');
  const again = await page.goto(adaLink);
  assert.equal(again.status(), 404, 'a used set-up link must not work twice');

  // A wrong password first.
  await page.goto(`${base}/account`);
  await page.getByLabel('E-mail address').fill('ada@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  assert.equal(await page.textContent('#signin-error'), 'Wrong e-mail address or password.');
  await shot(page, 'account-signin.png');

  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/account`);
  assert.match(await page.textContent('.account-bar'), /Signed in as ada@example\.com/);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'unitd_session');
  assert.ok(cookie.httpOnly && cookie.sameSite === 'Strict', 'session cookie is HttpOnly and SameSite=Strict');

  // Create a key: shown once, with a copy button.
  await page.getByLabel('Name').fill('billing service');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key1 = (await page.textContent('#new-key')).trim();
  const id1 = (await page.textContent('#new-key-id')).trim();
  assert.match(key1, /^uc_test_[A-Za-z0-9_-]{43}$/);
  await page.click('#copy');
  await until('the copy button reports', 2000, async () => (await page.textContent('#copy-status')) !== '');
  await shot(page, 'account-new-key.png');

  // Convert with it through the API (the store change reaches the server
  // within a second).
  await until('the new key converts', 1000, async () => (await convert(key1)) === 200);
  for (let i = 0; i < 4; i++) assert.equal(await convert(key1), 200);

  // Its traffic shows on its page.
  await page.getByRole('link', { name: "See this key's traffic" }).click();
  await page.waitForURL(`${base}/account/keys/${id1}`);
  assert.match(await page.textContent('figure.chart figcaption'), /: 5 in all/);
  assert.doesNotMatch(await page.textContent('dl.facts'), /never/, 'last use is shown');
  await shot(page, 'account-key.png', true);

  // Rotate with a one-day grace: both keys work.
  await page.selectOption('#grace', '24');
  await page.getByRole('button', { name: 'Rotate key' }).click();
  const key2 = (await page.textContent('#new-key')).trim();
  const id2 = (await page.textContent('#new-key-id')).trim();
  assert.notEqual(key2, key1);
  assert.match(await page.textContent('#old-key-state'), /keeps working until/);
  await until('the rotated key converts', 1000, async () => (await convert(key2)) === 200);
  assert.equal(await convert(key1), 200, 'the old key works during its grace period');

  // Rotate the new key with no grace: the old one is refused at once.
  await page.goto(`${base}/account/keys/${id2}`);
  await page.selectOption('#grace', '0');
  await page.getByRole('button', { name: 'Rotate key' }).click();
  const key3 = (await page.textContent('#new-key')).trim();
  assert.match(await page.textContent('#old-key-state'), /is revoked now/);
  await until('a key rotated with no grace is refused', 1000, async () => (await convert(key2)) === 401);
  await until('its successor converts', 1000, async () => (await convert(key3)) === 200);

  // Revoke the first key early, as the rotation sequence ends. "Revoke
  // now" asks first; cancelling keeps the key.
  await page.goto(`${base}/account/keys/${id1}`);
  await page.getByRole('button', { name: 'Revoke now' }).click();
  assert.match(await page.textContent('h1'), new RegExp(`Revoke billing service ${id1}\\?`));
  assert.match(await page.textContent('#revoke-warning'), /never works again/);
  assert.equal(await convert(key1), 200, 'one click on Revoke now leaves the key working');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.waitForURL(`${base}/account/keys/${id1}`);
  assert.doesNotMatch(await page.textContent('#key-state'), /revoked/);
  await page.getByRole('button', { name: 'Revoke now' }).click();
  await page.getByRole('button', { name: 'Yes, revoke this key' }).click();
  await page.waitForURL(`${base}/account/keys/${id1}`);
  assert.match(await page.textContent('#key-state'), /revoked/);
  await until('the revoked key is refused', 1000, async () => (await convert(key1)) === 401);
  assert.equal(await convert(key3), 200);

  // The list and the audit log.
  await page.goto(`${base}/account`);
  const rows = await page.locator('#keys tbody tr').count();
  assert.equal(rows, 3);
  const audit = await page.textContent('#audit');
  for (const what of ['key.create', 'key.rotate', 'key.revoke', 'user.signin', 'user.signin_failed', 'user.password_set', '127.0.0.1', 'ada@example.com']) {
    assert.ok(audit.includes(what), `audit log shows ${what}`);
  }
  assert.ok(!(await page.content()).includes(key3), 'the list never shows a whole key');
  await shot(page, 'account-keys.png', true);

  assert.deepEqual(page.problems, [], 'no CSP violation or script error');
  await page.context().close();
});

test('failures: wrong password, POST without CSRF token, another account\'s key', async () => {
  const page = await newPage();
  await page.goto(`${base}/account`);
  await page.getByLabel('E-mail address').fill('nobody@example.com');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  assert.equal(await page.textContent('#signin-error'), 'Wrong e-mail address or password.', 'unknown user: same answer');

  await page.getByLabel('E-mail address').fill('ada@example.com');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/account`);
  const csrf = await page.getAttribute('input[name=csrf]', 'value');

  // A POST without the form's token is refused, even with the session cookie.
  const noToken = await page.request.post(`${base}/account/keys`, { form: { name: 'sneaky' } });
  assert.equal(noToken.status(), 403);
  // A cross-site POST is refused even with the right token.
  const crossSite = await page.request.post(`${base}/account/keys`, {
    form: { name: 'sneaky', csrf }, headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
  });
  assert.equal(crossSite.status(), 403);
  await page.goto(`${base}/account`);
  assert.ok(!(await page.content()).includes('sneaky'), 'no key was created by refused requests');

  // Another account's key id in the URL: not found, on every route.
  const view = await page.goto(`${base}/account/keys/${bobKeyId}`);
  assert.equal(view.status(), 404);
  for (const action of ['rotate', 'revoke']) {
    const r = await page.request.post(`${base}/account/keys/${bobKeyId}/${action}`, { form: { csrf, grace_hours: '0', confirm: 'yes' } });
    assert.equal(r.status(), 404, `${action} of another account's key`);
  }
  assert.equal(await convert(bobKey), 200, "the other account's key still works");
  await page.context().close();
});
