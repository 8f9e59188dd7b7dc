// Browser test of the account page's Units tab: a real unitd binary
// ($UNITD_BIN) with a temporary store, driven by Debian's Chromium through
// playwright-core. A unit written in the form is checked as it is typed
// (its problems by line, then a preview conversion), saved, converted
// through the API with a key of the account, and deleted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { chromium } from 'playwright-core';

const bin = process.env.UNITD_BIN;
const password = 'correct horse battery staple';

let dir, store, base, server, serverLog = '', browser, link, key;

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

function cli(...args) {
  return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

async function until(what, ms, fn) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// smoot converts 2 smoot to m through the API and returns the answer.
async function smoot() {
  const r = await fetch(`${base}/v1/convert?value=2&from=smoot&to=m`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: r.status, body: await r.json() };
}

before(async () => {
  assert.ok(bin, 'UNITD_BIN must name the unitd binary (make e2e sets it)');
  dir = mkdtempSync(path.join(tmpdir(), 'unitd-e2e-units-'));
  store = path.join(dir, 'unitd.db');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  cli('accounts', 'create', '--store', store, 'Acme');
  link = cli('users', 'create', '--store', store, '--account', 'Acme', '--url', base, 'ada@example.com');
  key = cli('keys', 'create', '--store', store, '--account', 'Acme', '--name', 'converts', '--wait', '0');
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

test('define a unit on the Units tab, checked as it is typed, and use it', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));

  await page.goto(link);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('The same password again').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL(`${base}/account?ready=1`);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/account`);
  await page.getByRole('link', { name: 'Units' }).click();
  await page.waitForURL(`${base}/account/units`);

  const doc = page.getByLabel("The unit, in the catalog's schema");
  const wrong = 'category: length\nsymbol: smoot\nname: smoot\nplural: smoots\nsystem: MIT\n' +
    'definition: {factor: 1.7018, unit: m}\nexact: true\nsource: Oliver R. Smoot, 1958\nexamples: ["1 smoot = 1.8 m"]\n';
  await doc.fill(wrong);
  await until('the wrong example is reported', 3000, async () => /line 9/.test(await page.textContent('#unit-problems')));
  assert.match(await page.textContent('#unit-problems'), /example/);
  await doc.fill(wrong.replace('1.8 m', '1.7018 m'));
  await page.getByLabel('Value').fill('364.4');
  await until('the unit is valid', 3000, async () => /my:smoot is valid/.test(await page.textContent('#unit-problems')));
  await until('the preview converts', 3000, async () => (await page.textContent('#unit-preview')) === '364.4 smoot = 620.13592 m');
  assert.equal((await smoot()).status, 400, 'a check stores nothing');

  await page.getByRole('button', { name: 'Save unit' }).click();
  await page.waitForURL(`${base}/account/units/smoot`);
  assert.match(await page.textContent('#unit-history'), /ada@example\.com/);
  await until('the API converts with the unit', 2000, async () => (await smoot()).status === 200);
  assert.equal((await smoot()).body.data.result.value, '3.4036');

  await page.getByRole('button', { name: 'Delete my:smoot' }).click();
  await page.waitForURL(`${base}/account/units`);
  assert.match(await page.textContent('main'), /No units yet/);
  await until('the API refuses the deleted unit', 2000, async () => (await smoot()).status === 400);
  assert.deepEqual(problems, [], 'no CSP violation or script error');
  await context.close();
});
