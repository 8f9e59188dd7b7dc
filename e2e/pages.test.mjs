// Browser tests of unitd's pages: the converter, the catalog browser and the
// API reference, driven by Playwright in Debian's Chromium against the binary
// in UNITD_BIN, serving a temporary copy of catalog/data on a free loopback
// port. Run with `make e2e`. With UNITD_SCREENSHOTS=DIR the tests also save a
// screenshot of each page there (`make screenshots` writes docs/screenshots).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const BIN = process.env.UNITD_BIN;
const CATALOG = fileURLToPath(new URL("../catalog/data", import.meta.url));
const AXE = fileURLToPath(new URL("./node_modules/axe-core/axe.min.js", import.meta.url));
const SHOTS = process.env.UNITD_SCREENSHOTS || "";

let tmp, main, limited, browser;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// startUnitd starts `unitd serve` and resolves once it logs that it listens.
async function startUnitd(catalogDir, extraArgs) {
  const port = await freePort();
  const proc = spawn(BIN, ["serve", "--addr", `127.0.0.1:${port}`, "--admin-addr", "off", "--catalog", catalogDir,
    "--store", catalogDir + ".db", ...extraArgs], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk) => {
    log = (log + chunk).slice(-20000); // the tail, for failure messages
  };
  proc.stdout.on("data", keep);
  proc.stderr.on("data", keep);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`unitd did not start listening within 30 s:\n${log}`)), 30000);
    const onData = () => {
      if (log.includes('"msg":"listening"')) {
        clearTimeout(timer);
        proc.stderr.off("data", onData);
        resolve();
      }
    };
    proc.stderr.on("data", onData);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`unitd exited with ${code} before listening:\n${log}`));
    });
    proc.once("error", reject);
  });
  return { proc, base: `http://127.0.0.1:${port}`, log: () => log };
}

function stop(s) {
  if (!s || s.proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    s.proc.once("exit", resolve);
    s.proc.kill("SIGTERM");
  });
}

before(async () => {
  assert.ok(BIN, "UNITD_BIN must name the unitd binary (make e2e sets it)");
  tmp = await mkdtemp(join(tmpdir(), "unitd-e2e-"));
  await cp(CATALOG, join(tmp, "catalog"), { recursive: true });
  await cp(CATALOG, join(tmp, "catalog-limited"), { recursive: true });
  main = await startUnitd(join(tmp, "catalog"), ["--page-rate-limit", "1000/m", "--public-rate-limit", "100000/m"]);
  limited = await startUnitd(join(tmp, "catalog-limited"), ["--page-rate-limit", "3/m"]);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await Promise.all([stop(main), stop(limited)]);
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// newPage opens a page that records every Content-Security-Policy violation
// and every failed request, so each test can assert there were none.
async function newPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  const page = await context.newPage();
  page.problems = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) page.problems.push(m.text());
  });
  page.on("pageerror", (e) => page.problems.push("page error: " + e.message));
  // A request the browser cancels because the test navigated away (a
  // favicon still loading when a link is clicked) is aborted, not failed;
  // every other failure is the server's and counts.
  page.on("requestfailed", (r) => {
    if (r.failure()?.errorText !== "net::ERR_ABORTED") page.problems.push("request failed: " + r.url() + " " + r.failure()?.errorText);
  });
  page.sent = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/web/convert")) page.sent.push(r.postData());
  });
  page.on("response", (r) => {
    if (r.status() >= 500) page.problems.push(`${r.status()} ${r.url()}`);
  });
  return page;
}

async function closePage(page) {
  await page.context().close();
}

async function screenshot(page, name) {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, name + ".png"), fullPage: false });
}

// pickUnit types text into a unit field and chooses the suggestion with the
// given symbol using the keyboard only.
async function pickUnit(page, field, text, symbol) {
  await page.locator(field).pressSequentially(text);
  const list = page.locator(`${field}-list`);
  // The answer to the whole text, not one to a prefix typed on the way
  // that is still listed: its options and their order are what to count.
  await page.locator(`${field}-list[data-query="${text}"]`).waitFor({ state: "attached" });
  await list.locator(`li[data-symbol="${symbol}"]`).waitFor();
  const symbols = await list.locator("li[role=option]").evaluateAll((lis) => lis.map((li) => li.dataset.symbol));
  const idx = symbols.indexOf(symbol);
  for (let i = 0; i <= idx; i++) await page.keyboard.press("ArrowDown");
  assert.equal(await page.locator(field).getAttribute("aria-activedescendant"),
    await list.locator(`li[data-symbol="${symbol}"]`).getAttribute("id"));
  await page.keyboard.press("Enter");
  assert.equal(await page.locator(field).inputValue(), symbol);
  assert.equal(await list.isHidden(), true);
}

test("converter: 60 mph to km/h, found by typing and picked with the keyboard", { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(main.base + "/");
  // Focus order: skip link, the three navigation links, then the value.
  const order = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement.id || document.activeElement.textContent.trim());
    order.push(id);
    if (id === "value") break;
  }
  const nav = await page.locator("header nav a").allTextContents();
  assert.deepEqual(nav.slice(0, 3), ["Convert", "Catalog", "API reference"]);
  // The free-text field is the converter's first way in.
  assert.deepEqual(order, ["Skip to content", "unitd", ...nav, "question", "value"]);
  await page.keyboard.press("Control+A");
  await page.keyboard.type("60");
  await page.keyboard.press("Tab");
  await pickUnit(page, "#from", "mph", "mph");
  await page.keyboard.press("Tab"); // the swap button
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "to");
  await pickUnit(page, "#to", "km/h", "km/h");
  await page.keyboard.press("Enter"); // submits the form
  await page.locator("#result output").waitFor();
  assert.equal(await page.locator("#result output").textContent(), "96.56064");
  assert.equal(await page.locator("#result .badge").textContent(), "Exact");
  assert.match(await page.locator("#result").textContent(), /60 mph = 96\.56064 km\/h/);
  assert.equal(new URL(page.url()).search, "?value=60&from=mph&to=km%2Fh");
  assert.equal(await page.locator("#convert-status").textContent(), "60 mph = 96.56064 km/h, exact.");
  await screenshot(page, "converter");

  // An inexact result says how it was rounded, in words.
  await page.locator("#from").fill("ft");
  await page.locator("#to").fill("m");
  await page.locator("#value").fill("1");
  await page.locator("#precision").fill("5");
  await page.locator("#from").press("Enter");
  await page.locator("#result output").filter({ hasText: "0.3048" }).waitFor();
  assert.equal(await page.locator("#result .badge").textContent(), "Exact");
  await page.locator("#from").fill("m");
  await page.locator("#to").fill("ft");
  await page.locator("#go").click();
  await page.locator("#result output").filter({ hasText: "3.2808" }).waitFor();
  assert.equal(await page.locator("#result .badge").textContent(), "Rounded to 5 significant digits");
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("converter: the explain view shows the factor and each definition used", { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(main.base + "/?value=60&from=mph&to=km%2Fh&explain=true");
  assert.equal(await page.locator("#explain").isChecked(), true);
  await page.locator("#result output").filter({ hasText: "96.56064" }).waitFor();
  const x = page.locator("#result .explain");
  await x.waitFor();
  assert.match(await x.locator("dl.facts").textContent(), /Factor\s*1\.609344 \(exact\)/);
  const steps = await x.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const api = (await (await fetch(main.base + "/web/convert", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
    body: JSON.stringify({ value: "60", from: "mph", to: "km/h", explain: true }),
  })).json()).data.explain.steps;
  assert.deepEqual(steps, api.map((s) => [s.unit, s.definition, s.exact ? "exact" : "measured", s.source]));
  assert.ok(steps.some((s) => /NIST SP 811/.test(s[3])), `sources: ${steps.map((s) => s[3])}`);
  await screenshot(page, "converter-explain");

  // An affine conversion shows its offset; a formula shows its formulas.
  await page.goto(main.base + "/?value=100&from=degF&to=degC&explain=true&precision=10");
  await page.locator("#result .explain").waitFor();
  assert.match(await page.locator("#result .explain dl.facts").textContent(), /Factor\s*5\/9 \(exact\)Offset\s*-160\/9 \(exact\)/);
  assert.equal(await page.locator("#result .badge").textContent(), "Rounded to 10 significant digits");
  await page.goto(main.base + "/?value=5&from=L%2F100km&to=mpg&explain=true");
  await page.locator("#result .explain").waitFor();
  assert.match(await page.locator("#result .explain dl.facts").textContent(), /Formula of L\/100km\s*to km\/L: 100 \/ x; back: 100 \/ x/);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("converter: unit expressions are sent as typed", { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(main.base + "/");
  await page.locator("#value").fill("60");
  await page.locator("#from").pressSequentially("mile/hour");
  await page.locator("#unit-status").filter({ hasText: /./ }).waitFor();
  await page.keyboard.press("Escape");
  await page.locator("#to").fill("km/h");
  await page.locator("#precision").press("Enter");
  await page.locator("#result output").filter({ hasText: "96.56064" }).waitFor();
  assert.equal(await page.locator("#result .badge").textContent(), "Exact");
  assert.match(await page.locator("#result").textContent(), /60 mile\/hour = 96\.56064 km\/h/);
  // A malformed expression: the message names the position.
  await page.locator("#from").fill("kg*m/s^(2");
  await page.locator("#to").fill("N");
  await page.locator("#precision").press("Enter");
  // Wait for this answer, not whatever the region showed before it.
  await page.locator("#result .error").filter({ hasText: /position \d+/ }).waitFor({ timeout: 15000 })
    .catch(async (e) => assert.fail(`${e.message}; sent: ${page.sent.join(" | ")}; shown: ${await page.locator("#result").textContent()}`));
  assert.match(await page.locator("#result").textContent(), /INVALID_UNIT_EXPRESSION/);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("converter: Auto picks the unit for a usage and region, and a mixed result shows its parts", { timeout: 120_000 }, async () => {
  const page = await newPage({ locale: "de-DE" });
  await page.goto(main.base + "/");
  await page.locator("#value").fill("1.75");
  await pickUnit(page, "#from", "m", "m");
  assert.equal(await page.locator("#auto-options").isHidden(), true);
  await page.locator("#auto").check();
  assert.equal(await page.locator("#auto-options").isVisible(), true);
  assert.equal(await page.locator("#to").inputValue(), "auto");
  assert.equal(await page.locator("#to").getAttribute("readonly"), "");
  // The usages are those of length, from GET /v1/preferences.
  await page.locator('#usage option[value="person-height"]').waitFor({ state: "attached" });
  const usages = await page.locator("#usage option").evaluateAll((os) => os.map((o) => o.value));
  assert.ok(usages.includes("road") && !usages.includes("weather"), `usages: ${usages}`);
  await page.locator("#usage").selectOption("person-height");
  await page.locator("#region").fill("GB");
  await page.locator("#precision").fill("2");
  await page.locator("#go").click();
  await page.locator("#result .answer .part").nth(1).waitFor();
  const parts = await page.locator("#result .answer .part").allTextContents();
  assert.deepEqual(parts, ["5 ft", "8.9 in"]);
  assert.equal(await page.locator("#result .badge").textContent(), "Rounded to 2 significant digits");
  assert.match(await page.locator("#result").textContent(), /1\.75 m = 5 ft 8\.9 in/);
  assert.equal(await page.locator("#convert-status").textContent(), "1.75 m = 5 ft 8.9 in, rounded to 2 significant digits.");
  const q = new URL(page.url()).searchParams;
  assert.deepEqual([q.get("to"), q.get("usage"), q.get("region")], ["auto", "person-height", "GB"]);
  await screenshot(page, "converter-auto");

  // Without a region, the browser's locale decides: de-DE is Germany, cm.
  await page.locator("#region").fill("");
  await page.locator("#precision").fill("34");
  await page.locator("#explain").check();
  await page.locator("#go").click();
  await page.locator("#result output").filter({ hasText: /^175$/ }).waitFor();
  const facts = await page.locator("#result .explain dl.facts").textContent();
  assert.match(facts, /Chosencm is the only preference for person-height in 001/);
  assert.match(facts, /RegionDE \(the locale's region\)/);
  assert.ok(page.sent.at(-1).includes('"locale":"de-DE"'), page.sent.at(-1));

  // The address keeps it all: opening it converts again.
  await page.goto(main.base + "/?value=70&from=kg&to=auto&usage=person&region=GB&precision=3");
  await page.locator("#result .answer .part").nth(1).waitFor();
  assert.deepEqual(await page.locator("#result .answer .part").allTextContents(), ["11 st", "0.324 lb"]);
  assert.equal(await page.locator("#auto").isChecked(), true);
  assert.equal(await page.locator("#usage").inputValue(), "person");

  // A mixed source takes a value per part; unchecking Auto restores the target.
  await page.locator("#auto").uncheck();
  assert.equal(await page.locator("#to").inputValue(), "");
  await page.locator("#value").fill("5 3.5");
  await page.locator("#precision").fill("34");
  await page.locator("#from").fill("ft+in");
  await page.locator("#to").fill("cm");
  await page.locator("#go").click();
  await page.locator("#result output").filter({ hasText: "161.29" }).waitFor();
  assert.match(await page.locator("#result").textContent(), /5 3\.5 ft\+in = 161\.29 cm/);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("converter: the suggestions show the category of each unit", { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(main.base + "/");
  await page.locator("#from").pressSequentially("psi");
  const opt = page.locator('#from-list li[data-symbol="psi"]');
  await opt.waitFor();
  assert.match(await opt.textContent(), /Pressure/);
  assert.equal(await page.locator("#from").getAttribute("aria-expanded"), "true");
  assert.match(await page.locator("#unit-status").textContent(), /^\d+ units? found/);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#from").getAttribute("aria-expanded"), "false");
  // An answer that arrives after Escape fills the list but leaves it
  // closed: Escape is pressed before the lookup (120 ms after the last
  // keystroke) has even started.
  await page.locator("#from").fill("");
  await page.locator("#from").pressSequentially("bar");
  await page.keyboard.press("Escape");
  await page.locator('#from-list li[data-symbol="bar"]').waitFor({ state: "attached" });
  assert.equal(await page.locator("#from").getAttribute("aria-expanded"), "false");
  assert.equal(await page.locator("#from-list").isHidden(), true);
  // Once a unit is chosen on one side, the other lists its category first.
  const offered = async (field, text) => {
    await page.locator(field).fill("");
    await page.locator(field).pressSequentially(text);
    await page.locator(`${field}-list li[data-symbol="${text}"]`).waitFor();
    return page.locator(`${field}-list li[role=option]`).evaluateAll((lis) =>
      lis.map((li) => li.dataset.symbol + " " + li.querySelector(".cat").textContent));
  };
  const before = await offered("#to", "km");
  assert.equal(before[0], "km Length");
  assert.notEqual(before[1].split(" ")[1], "Speed", `without a unit on the other side: ${before}`);
  await page.keyboard.press("Escape");
  await page.locator("#from").fill("");
  await pickUnit(page, "#from", "mph", "mph");
  const after = await offered("#to", "km");
  assert.equal(after[0], "km Length");
  assert.equal(after[1], "km/h Speed", `with mph on the other side: ${after}`);
  await closePage(page);
});

test("converter: an ambiguous gallon shows its candidates", { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(main.base + "/");
  await page.locator("#from").pressSequentially("gallon");
  await page.locator("#from-list li.heading").waitFor();
  assert.match(await page.locator("#from-list li.heading").textContent(), /“gallon” is ambiguous/);
  const offered = await page.locator("#from-list li[role=option]").evaluateAll((lis) => lis.map((li) => li.dataset.symbol));
  assert.deepEqual(offered.slice(0, 2), ["gal", "gal_imp"]);
  await screenshot(page, "converter-ambiguous");

  // Converting the name anyway: the answer lists the candidates as choices.
  await page.keyboard.press("Escape");
  await page.locator("#to").fill("L");
  await page.locator("#go").click();
  await page.locator("#result .error").waitFor();
  assert.match(await page.locator("#result .error").textContent(), /"gallon" is ambiguous/);
  const choices = await page.locator("#result .choices button").evaluateAll((bs) => bs.map((b) => b.dataset.symbol));
  assert.deepEqual(choices, ["gal", "gal_imp"]);
  await page.locator('#result .choices button[data-symbol="gal_imp"]').click();
  await page.locator("#result output").waitFor();
  assert.equal(await page.locator("#from").inputValue(), "gal_imp");
  assert.equal(await page.locator("#result output").textContent(), "4.54609");
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("converter: an unknown unit shows suggestions", { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(main.base + "/?value=3&from=fet&to=m");
  await page.locator("#result .error").waitFor();
  assert.match(await page.locator("#result .error").textContent(), /unknown unit "fet"/);
  const offered = await page.locator("#result .choices button").evaluateAll((bs) => bs.map((b) => b.dataset.symbol));
  assert.ok(offered.includes("ft"), `suggestions ${offered} include ft`);
  await screenshot(page, "converter-unknown");
  await page.locator('#result .choices button[data-symbol="ft"]').click();
  await page.locator("#result output").waitFor();
  assert.equal(await page.locator("#result output").textContent(), "0.9144");
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("converter: glucose mg/dL to mmol/L asks for the substance, found by typing", { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(main.base + "/");
  assert.equal(await page.locator("#substance-field").isHidden(), true);
  await page.locator("#value").fill("100");
  await page.locator("#from").fill("mg/dL");
  await page.locator("#to").fill("mmol/L");
  await page.locator("#precision").fill("5");
  await page.locator("#go").click();
  // The units convert only through a molar mass: the answer says so and
  // the substance field appears.
  await page.locator("#result .error").filter({ hasText: /needs a molar mass/ }).waitFor();
  assert.equal(await page.locator("#substance-field").isVisible(), true);
  assert.equal(await page.locator("#conditions-field").isHidden(), true);
  assert.match(await page.locator("#needs-hint").textContent(), /substance/);
  await pickUnit(page, "#substance", "gluc", "glucose");
  await page.locator("#explain").check();
  await page.locator("#go").click();
  await page.locator("#result output").filter({ hasText: "5.5507" }).waitFor();
  assert.equal(await page.locator("#result .badge").textContent(), "Rounded to 5 significant digits");
  assert.match(await page.locator("#result").textContent(), /100 mg\/dL = 5\.5507 mmol\/L/);
  const sent = JSON.parse(page.sent.at(-1));
  assert.equal(sent.substance, "glucose");
  const mm = page.locator('#result .explain tr[data-property="molar_mass"]');
  assert.match(await mm.textContent(), /180\.156 g\/mol/);
  assert.match(await mm.locator(".source").textContent(), /standard atomic weights/);
  const shared = new URL(page.url());
  assert.equal(shared.searchParams.get("substance"), "glucose");
  await screenshot(page, "converter-substance");

  // The shared address fills the field and converts again.
  await page.goto(main.base + shared.pathname + shared.search);
  await page.locator("#result output").filter({ hasText: "5.5507" }).waitFor();
  assert.equal(await page.locator("#substance").inputValue(), "glucose");

  // The catalog lists the substance with the source of its molar mass.
  await page.goto(main.base + "/catalog");
  await page.locator("#substances-link").click();
  const row = page.locator('tr[data-substance="glucose"]');
  await row.waitFor();
  assert.match(await row.textContent(), /C6H12O6.*50-99-7.*180\.156 g\/mol/s);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("converter: free text is answered as it is typed, in the browser's language", { timeout: 120_000 }, async () => {
  const de = await newPage({ locale: "de-DE" });
  await de.goto(main.base + "/");
  await de.locator("#question").pressSequentially("3 in in cm");
  await de.locator("#ask-answer").filter({ hasText: "7,62" }).waitFor();
  assert.equal((await de.locator("#ask-answer").textContent()).replace(/\s/g, " "), "7,62 cm");
  assert.match(await de.locator("#ask-understood").textContent(), /^3 in = 7\.62 cm$/);
  assert.equal(await de.locator("#ask-result .badge").textContent(), "Exact");
  assert.equal(new URL(de.url()).searchParams.get("q"), "3 in in cm");
  // German free text: a decimal comma and German unit names.
  await de.locator("#question").fill("");
  await de.locator("#question").pressSequentially("12,5 Kilometer in Meter");
  await de.locator("#ask-answer").filter({ hasText: "12.500" }).waitFor();
  assert.equal((await de.locator("#ask-answer").textContent()).replace(/\s/g, " "), "12.500 m");
  // Every request the field sent was the question alone.
  assert.ok(de.sent.length >= 2);
  for (const body of de.sent) assert.deepEqual(Object.keys(JSON.parse(body)), ["q"]);
  assert.deepEqual(de.problems, []);
  await closePage(de);

  const en = await newPage({ locale: "en-US" });
  await en.goto(main.base + "/?q=" + encodeURIComponent("1½ cups → mL"));
  assert.equal(await en.locator("#question").inputValue(), "1½ cups → mL");
  // The text is in readable digits (CLDR's: at most three fraction
  // digits here); the exact 354.88235475 stays in the JSON value.
  await en.locator("#ask-answer").filter({ hasText: "354.882" }).waitFor();
  assert.equal((await en.locator("#ask-answer").textContent()).replace(/\s/g, " "), "354.882 mL");
  await screenshot(en, "converter-free-text");
  // Text that cannot be read says where, without guessing.
  await en.locator("#question").fill("1,5 km to m");
  await en.locator("#ask-body .ask-error").waitFor();
  assert.match(await en.locator("#ask-body .ask-error").textContent(), /position 2/);
  // A unit whose meaning depends on the region is read as the browser's
  // region's, and the page says so; an ambiguous symbol is refused with
  // the candidates.
  await en.locator("#question").fill("2 gallon to L");
  await en.locator("#ask-answer").filter({ hasText: "7.571" }).waitFor();
  assert.match(await en.locator("#ask-assumed").textContent(), /US gallon \(region US/);
  await en.locator("#question").fill("72 F to C");
  await en.locator("#ask-body .ask-error").filter({ hasText: "ambiguous" }).waitFor();
  assert.match(await en.locator("#ask-body").textContent(), /It could mean: .*degC/);
  assert.deepEqual(en.problems, []);
  await closePage(en);
});

test("catalog: unit names follow the browser's language", { timeout: 120_000 }, async () => {
  const page = await newPage({ locale: "de-DE" });
  await page.goto(main.base + "/catalog/units/km%2Fh");
  assert.equal(await page.locator("#reader-name").textContent(), "Kilometer pro Stunde · km/h · km/h");
  const names = await page.locator("details.names li").allTextContents();
  assert.ok(names.length >= 80, `${names.length} languages`);
  assert.ok(names.includes("fr kilomètres par heure · km/h · km/h"), names.find((n) => n.startsWith("fr ")));
  assert.ok(names.some((n) => n.startsWith("ja キロメートル毎時")), names.find((n) => n.startsWith("ja ")));
  await screenshot(page, "catalog-unit-names");
  await page.goto(main.base + "/catalog/length");
  assert.equal(await page.locator('tr[data-unit="ft"] td.local').textContent(), "Fuß");
  assert.equal(await page.locator('tr[data-unit="in"] td.local').textContent(), "Zoll");
  // The converter's unit search finds German names and shows them.
  await page.goto(main.base + "/");
  await page.locator("#from").pressSequentially("Zoll");
  const li = page.locator('#from-list li[data-symbol="in"]');
  await li.waitFor();
  assert.match(await li.textContent(), /in Zoll/);
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("catalog: lists every category of the running catalog", { timeout: 120_000 }, async () => {
  const cats = (await (await fetch(main.base + "/v1/categories")).json()).data;
  const page = await newPage();
  await page.goto(main.base + "/catalog");
  const rows = await page.locator("table.categories tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [tr.dataset.category, tr.querySelector("th a").textContent, tr.querySelectorAll("td")[2].textContent]));
  assert.deepEqual(rows, cats.map((c) => [c.id, c.name, String(c.unit_count)]));
  await screenshot(page, "catalog");

  // Stable addresses: a category, a unit (with a slash in its symbol), an alias.
  await page.locator('a[href="/catalog/speed"]').click();
  await page.locator("h1").filter({ hasText: "Speed" }).waitFor();
  await page.locator('a[href="/catalog/units/km%2Fh"]').first().click();
  await page.locator("h1").filter({ hasText: "kilometre per hour" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/catalog/units/km%2Fh");
  const kmh = (await (await fetch(main.base + "/v1/units/km%2Fh")).json()).data;
  const facts = await page.locator("dl.facts").textContent();
  assert.ok(facts.includes(`1 km/h = ${kmh.definition.factor} ${kmh.definition.unit}`), facts);
  assert.ok(facts.includes(kmh.source), facts);
  await screenshot(page, "catalog-unit");
  await page.goto(main.base + "/catalog/units/feet");
  assert.equal(new URL(page.url()).pathname, "/catalog/units/ft");

  // Search and filter by category and system.
  await page.goto(main.base + "/catalog");
  await page.locator("#q").fill("gallon");
  await page.locator("#category").selectOption("volume");
  await page.locator("#system").selectOption("imperial");
  await page.locator("form.filter button[type=submit]").click();
  await page.locator("#results-title").waitFor();
  const found = await page.locator("table.units tbody tr").evaluateAll((trs) => trs.map((tr) => tr.dataset.unit));
  assert.ok(found.includes("gal_imp"), `found ${found}`);
  assert.ok(!found.includes("gal"), `the US gallon is not imperial: ${found}`);
  await screenshot(page, "catalog-search");
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

// fitsWidth asserts that nothing on the page is wider than the viewport:
// the document does not scroll sideways, and no table reaches past it.
async function fitsWidth(page, what) {
  const m = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    tables: [...document.querySelectorAll("table")].map((t) => Math.ceil(t.getBoundingClientRect().right)),
  }));
  assert.ok(m.scroll <= m.client, `${what}: the page is ${m.scroll} px wide in a ${m.client} px viewport`);
  for (const right of m.tables) assert.ok(right <= m.client, `${what}: a table ends at ${right} px of ${m.client}`);
}

test("substances: the table fits 375 and 1280 px, filters by kind and searches without a script", { timeout: 180_000 }, async () => {
  const foods = (await (await fetch(main.base + "/v1/substances?q=brown%20sugar")).json()).data.map((s) => s.id);
  assert.ok(foods.length >= 2, `brown sugar: ${foods}`);
  const axe = await readFile(AXE, "utf8");
  for (const width of [375, 1280]) {
    const page = await newPage({ viewport: { width, height: 900 }, javaScriptEnabled: false });
    await page.goto(main.base + "/catalog/substances");
    await fitsWidth(page, `${width} px, all substances`);
    assert.match(await page.locator("#results-range").textContent(), /^1 to 50 of \d+ \(page 1 of \d+\)\.$/);
    // Every value cites a note below the table, which holds its source.
    const ref = page.locator("table.substances sup.ref a").first();
    const note = await ref.getAttribute("href");
    assert.match(await page.locator(note).textContent(), /standard atomic weights/);

    // The kind links filter, and say which one is current.
    await page.locator('nav.kinds a[data-kind="food"]').click();
    await page.waitForURL(/[?&]kind=food/);
    const kinds = await page.locator("table.substances tbody tr").evaluateAll((trs) => trs.map((tr) => tr.dataset.kind));
    assert.ok(kinds.length > 0 && kinds.every((k) => k === "food"), `kinds ${kinds}`);
    assert.equal(await page.locator('nav.kinds a[data-kind="food"]').getAttribute("aria-current"), "page");
    await fitsWidth(page, `${width} px, foods`);
    if (width === 375) {
      // A row is a card whose cells say what they hold.
      const label = await page.locator("table.substances tbody td").first().evaluate((td) => getComputedStyle(td, "::before").content);
      assert.match(label, /Density|Portions/);
    }
    await screenshot(page, `substances-${width}`);

    // The search box keeps the kind; the answer is ranked.
    await page.locator("#q").fill("brown sugar");
    await page.locator("#q").press("Enter");
    await page.waitForURL(/[?&]q=brown\+sugar/);
    assert.equal(new URL(page.url()).searchParams.get("kind"), "food");
    const found = await page.locator("table.substances tbody tr").evaluateAll((trs) => trs.map((tr) => tr.dataset.substance));
    assert.deepEqual(found, foods);
    await fitsWidth(page, `${width} px, a search`);

    // A name that matches nothing gets suggestions.
    await page.locator("#q").fill("glucsoe");
    await page.locator("#kind").selectOption("");
    await page.locator("form.filter button[type=submit]").click();
    await page.locator("#suggestions a").first().click();
    await page.waitForURL(/[?&]q=glucose/);
    assert.equal(await page.locator("table.substances tbody tr").first().getAttribute("data-substance"), "glucose");
    assert.deepEqual(page.problems, []);
    await closePage(page);

    // axe-core at this width, on the whole list, a kind and a search.
    const a11y = await newPage({ viewport: { width, height: 900 }, bypassCSP: true });
    for (const path of ["/catalog/substances", "/catalog/substances?kind=food&page=2", "/catalog/substances?q=glucsoe"]) {
      await a11y.goto(main.base + path);
      await a11y.addScriptTag({ content: axe });
      const results = await a11y.evaluate(() => window.axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      }));
      const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      assert.deepEqual(bad.map((v) => `${width} px ${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(" | ")}`), []);
    }
    await closePage(a11y);
  }
});

test("catalog: an edit of the catalog directory shows after a reload", { timeout: 120_000 }, async () => {
  const file = join(tmp, "catalog", "length.yaml");
  const yaml = await readFile(file, "utf8");
  const smoot = `units:
  - symbol: smoot
    name: smoot
    plural: smoots
    system: other
    definition: {factor: 1.7018, unit: m}
    exact: true
    source: MIT, Harvard Bridge measurement (1958)
    examples:
      - 1 smoot = 1.7018 m

`;
  await writeFile(file, yaml.replace(/^units:\n/m, smoot));
  // Wait for the server to have reloaded: the catalog version changes.
  const before = (await (await fetch(main.base + "/v1/health")).json()).catalog.version;
  const deadline = Date.now() + 20000;
  let reloaded = false;
  while (Date.now() < deadline && !reloaded) {
    const r = await fetch(main.base + "/v1/units/smoot");
    reloaded = r.status === 200;
    if (!reloaded) await new Promise((res) => setTimeout(res, 50));
  }
  assert.ok(reloaded, "the server reloads the edited catalog");
  assert.notEqual((await (await fetch(main.base + "/v1/health")).json()).catalog.version, before);
  const page = await newPage();
  await page.goto(main.base + "/catalog/length");
  assert.equal(await page.locator('tr[data-unit="smoot"] td').first().textContent(), "smoot");
  await page.goto(main.base + "/catalog/units/smoot");
  assert.match(await page.locator("dl.facts").textContent(), /MIT, Harvard Bridge/);
  await closePage(page);
});

test("docs: the API reference shows every path of /openapi.json at once, and the explorer on demand", { timeout: 120_000 }, async () => {
  const doc = await (await fetch(main.base + "/openapi.json")).json();
  const expected = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) expected.push(method.toUpperCase() + " " + path);
  }
  assert.ok(expected.length >= 9, `paths: ${expected}`);
  const page = await newPage();
  // Rendered by the server: whole when the document is, before any script.
  await page.goto(main.base + "/docs", { waitUntil: "domcontentloaded" });
  const shown = await page.locator("article.op h3").evaluateAll((hs) => hs.map((h) =>
    h.querySelector(".method").textContent + " " + h.querySelector("code").textContent));
  assert.deepEqual([...shown].sort(), [...expected].sort());
  assert.equal(await page.locator(".opblock").count(), 0, "Swagger UI is loaded only when asked for");
  // The explorer, when asked for, lays out the same operations.
  await page.getByRole("button", { name: "Open the explorer" }).click();
  await page.locator(".opblock").first().waitFor({ timeout: 20000 });
  const explored = await page.locator(".opblock").evaluateAll((blocks) => blocks.map((b) =>
    b.querySelector(".opblock-summary-method").textContent + " " + b.querySelector(".opblock-summary-path").dataset.path));
  assert.deepEqual([...explored].sort(), [...expected].sort());
  assert.match(await page.locator("section.curl pre").textContent(), new RegExp(`curl -s ${main.base.replace(/[.]/g, "\\.")}/v1/categories`));
  await screenshot(page, "docs");
  assert.deepEqual(page.problems, []);
  await closePage(page);
});

test("accessibility: axe-core finds no serious or critical violation", { timeout: 300_000 }, async () => {
  const axe = await readFile(AXE, "utf8");
  // Injecting axe needs a script the page's policy would refuse, so this
  // context alone bypasses the CSP.
  const page = await newPage({ bypassCSP: true });
  const pages = [
    ["/", null],
    ["/?q=3%20in%20in%20cm", "#ask-answer"],
    ["/?q=1%2C5%20km%20to%20m", "#ask-body .ask-error"],
    ["/catalog/units/km%2Fh", "details.names"],
    ["/?value=1&from=gallon&to=L", "#result .error"],
    ["/?value=60&from=mph&to=km%2Fh", "#result output"],
    ["/?value=100&from=degF&to=degC&explain=true", "#result .explain"],
    ["/catalog", null],
    ["/catalog?q=inch&system=", null],
    ["/catalog/pressure", null],
    ["/catalog/substances", null],
    ["/?value=100&from=mg%2FdL&to=mmol%2FL&substance=glucose&explain=true", "#result .explain"],
    ["/catalog/units/degF", null],
    ["/catalog/units/nosuchunit", null],
    ["/docs", "article.op"],
  ];
  for (const [path, ready] of pages) {
    await page.goto(main.base + path);
    if (ready) await page.locator(ready).first().waitFor({ timeout: 20000 });
    await page.addScriptTag({ content: axe });
    const results = await page.evaluate(() => window.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    }));
    const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    assert.deepEqual(bad.map((v) => `${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(" | ")}`), []);
  }
  // The explorer with operations opened: parameters, bodies, examples.
  await page.goto(main.base + "/docs");
  await page.getByRole("button", { name: "Open the explorer" }).click();
  await page.locator(".opblock").first().waitFor({ timeout: 20000 });
  for (const block of await page.locator(".opblock-summary-control").all()) await block.click();
  await page.locator(".opblock-body").first().waitFor();
  assert.ok(await page.locator(".opblock-body").count() >= 9);
  await page.addScriptTag({ content: axe });
  const docs = await page.evaluate(() => window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }));
  assert.deepEqual(docs.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`), []);
  // With the suggestions open as well.
  await page.goto(main.base + "/");
  await page.locator("#from").pressSequentially("gal");
  await page.locator("#from-list li[role=option]").first().waitFor();
  await page.keyboard.press("ArrowDown");
  await page.addScriptTag({ content: axe });
  const open = await page.evaluate(() => window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }));
  assert.deepEqual(open.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), []);
  await closePage(page);
});

test("pages: every answer carries the strict policy and headers", { timeout: 120_000 }, async () => {
  for (const path of ["/", "/catalog", "/catalog/length", "/catalog/units/ft", "/docs", "/static/app.css"]) {
    const r = await fetch(main.base + path);
    assert.equal(r.status, 200, path);
    const csp = r.headers.get("content-security-policy");
    for (const d of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
      "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"]) {
      assert.ok(csp.includes(d), `${path}: ${csp} has ${d}`);
    }
    assert.ok(!/unsafe-(inline|eval)/.test(csp), `${path}: ${csp}`);
    assert.equal(r.headers.get("x-content-type-options"), "nosniff", path);
    assert.ok(r.headers.get("referrer-policy"), path);
    const etag = r.headers.get("etag");
    assert.ok(etag, path);
    const again = await fetch(main.base + path, { headers: { "If-None-Match": etag } });
    assert.equal(again.status, 304, path);
  }
  // No key in any page or script.
  for (const path of ["/", "/static/converter.js", "/docs", "/static/docs.js"]) {
    const body = await (await fetch(main.base + path)).text();
    assert.ok(!/uc_(live|test)_[A-Za-z0-9_-]{43}/.test(body), path);
    if (path === "/static/converter.js") assert.ok(!/Authorization|Bearer/.test(body), path);
  }
});

test("keyless route: refuses cross-origin requests and answers 429 past its limit", { timeout: 120_000 }, async () => {
  const url = limited.base + "/web/convert";
  const body = JSON.stringify({ value: "1", from: "m", to: "ft" });
  const post = (headers) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
  for (const headers of [
    { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
    { "Sec-Fetch-Site": "same-site", Origin: "http://localhost:1" },
    { Origin: "https://evil.example" },
    {},
  ]) {
    const r = await post(headers);
    assert.equal(r.status, 403, JSON.stringify(headers));
    assert.equal((await r.json()).error.code, "CROSS_ORIGIN_REQUEST");
  }
  // A real cross-origin page: localhost and 127.0.0.1 are different origins.
  const page = await newPage();
  const port = new URL(limited.base).port;
  await page.goto(`http://localhost:${port}/catalog`);
  const outcome = await page.evaluate(async (target) => {
    try {
      const r = await fetch(target, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"value":"1","from":"m","to":"ft"}' });
      return "status " + r.status;
    } catch (e) {
      return "blocked";
    }
  }, url);
  assert.equal(outcome, "blocked"); // no CORS: the browser does not even send it
  await closePage(page);

  // The converter page of the limited server: three conversions, then 429.
  const conv = await newPage();
  for (let i = 1; i <= 3; i++) {
    await conv.goto(`${limited.base}/?value=${i}&from=m&to=cm`);
    await conv.locator("#result output").waitFor();
    assert.equal(await conv.locator("#result output").textContent(), String(i * 100));
  }
  await conv.goto(`${limited.base}/?value=4&from=m&to=cm`);
  await conv.locator("#result .error").waitFor();
  assert.match(await conv.locator("#result").textContent(), /Try again in \d+ s/);
  await closePage(conv);
  const r = await post({ "Sec-Fetch-Site": "same-origin" });
  assert.equal(r.status, 429);
  assert.ok(Number(r.headers.get("retry-after")) >= 1);
  assert.equal((await r.json()).error.code, "RATE_LIMIT_EXCEEDED");
});
