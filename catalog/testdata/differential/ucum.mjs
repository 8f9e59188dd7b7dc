// ucum.mjs enumerates the cases of the UCUM differential test
// (catalog/differential_ucum_test.go) and answers each with ucum-lhc, the
// implementation of the UCUM table's maintainers at the NLM (the npm
// package @lhncbc/ucum-lhc pinned in package.json beside this file).
//
// The cases: every unit code of ucum-lhc's table (its UCUM atoms and base
// units, and the codes it adds from LOINC), and every metric atom under
// every prefix. Each is converted to the base-unit expression of its
// dimension (m, s, g, rad, K, C, cd, with mol and eq where the code counts
// amounts or equivalents), and an atom also to a second atom of its own
// dimension (the next one in the table's order, neither special nor
// arbitrary), a base unit to itself under kilo, a prefixed atom to the
// atom without its prefix. Codes with equivalents are also converted to
// the same code in moles with the charge 2. Every case runs at 1, 37.5 and
// -37.5, the last only when the source is no absolute temperature
// (ucum-lhc converts -37.5 K without complaint; below absolute zero is no
// temperature), and in both directions.
//
// It prints one JSON object a line:
//
//	{"kind":"atom","pair":"[in_i] → m","from":"[in_i]","to":"m","value":"37.5","result":"0.9525"}
//
// with "error" instead of "result" where ucum-lhc does not answer (a
// non-finite answer counts as no answer), "back":true on the cases of the
// reverse direction (pair still names the forward one) and "charge" on the
// cases that need one.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const ucum = require("@lhncbc/ucum-lhc");
const { PrefixTables } = require("@lhncbc/ucum-lhc/source-cjs/prefixTables.js");

const utils = ucum.UcumLhcUtils.getInstance();
const tables = ucum.UnitTables.getInstance();
const prefixes = Object.keys(PrefixTables.getInstance().byCode_).sort();
const bases = tables.dimVecIndexToBaseUnit_; // index of the dimension vector → base unit code

const values = ["1", "37.5", "-37.5"];
const out = [];

function unitOf(code) {
  return utils.getSpecifiedUnit(code, "convert", false).unit ?? null;
}

// baseExpression is the product of base units of the unit's dimension.
function baseExpression(u) {
  const terms = [];
  const vec = u.dim_?.dimVec_ ?? [];
  vec.forEach((e, i) => {
    if (e !== 0) terms.push(bases[i] + (e === 1 ? "" : String(e)));
  });
  if (u.moleExp_) terms.push("mol" + (u.moleExp_ === 1 ? "" : String(u.moleExp_)));
  if (u.equivalentExp_) terms.push("eq" + (u.equivalentExp_ === 1 ? "" : String(u.equivalentExp_)));
  return terms.length ? terms.join(".") : "1";
}

function sameDimension(a, b) {
  const va = a.dim_?.dimVec_ ?? [0, 0, 0, 0, 0, 0, 0];
  const vb = b.dim_?.dimVec_ ?? [0, 0, 0, 0, 0, 0, 0];
  return va.every((e, i) => e === vb[i]) && (a.moleExp_ ?? 0) === (b.moleExp_ ?? 0) && (a.equivalentExp_ ?? 0) === (b.equivalentExp_ ?? 0);
}

// absoluteTemperature reports a unit of a temperature scale that starts
// at absolute zero (K, °R and their prefixed forms), whose negative values
// are no temperatures.
function absoluteTemperature(u) {
  const vec = u.dim_?.dimVec_ ?? [];
  return !u.isSpecial_ && vec.every((e, i) => (bases[i] === "K" ? e === 1 : e === 0));
}

function convert(from, value, to, options) {
  let r;
  try {
    r = utils.convertUnitTo(from, Number(value), to, options);
  } catch (e) {
    return { error: "threw: " + e.message };
  }
  if (r.status !== "succeeded") return { error: r.status + ": " + (r.msg || []).join("; ") };
  if (typeof r.toVal !== "number" || !Number.isFinite(r.toVal)) return { error: "non-finite result " + String(r.toVal) };
  return { result: String(r.toVal) };
}

const seen = new Set();
function pair(kind, from, to, options = {}) {
  const key = from + " → " + to;
  if (from === to || seen.has(key)) return;
  seen.add(key);
  const uf = unitOf(from);
  const ut = unitOf(to);
  for (const [src, dst, back] of [[from, to, false], [to, from, true]]) {
    const us = back ? ut : uf;
    for (const value of values) {
      if (value.startsWith("-") && us && absoluteTemperature(us)) continue;
      const c = { kind, pair: key, from: src, to: dst, value, ...convert(src, value, dst, options) };
      if (back) c.back = true;
      if (options.charge) c.charge = options.charge;
      out.push(c);
    }
  }
}

// The table's codes, in its order. A code is trimmed as ucum-lhc trims
// it ("g/kg " is in the table with its space).
const codes = tables.codeOrder_.map((c) => c.trim());
const atoms = tables.codeOrder_.map((c) => tables.unitCodes_[c]).filter((u) => u.source_ === "UCUM");
const plain = atoms.filter((u) => !u.isSpecial_ && !u.isArbitrary_);

for (const code of codes) {
  const u = unitOf(code);
  if (!u) {
    out.push({ kind: "table", pair: code + " → ?", from: code, to: "", value: "1", error: "ucum-lhc does not read its own code" });
    continue;
  }
  const atom = tables.unitCodes_[code]?.source_ === "UCUM";
  pair(atom ? "atom" : "table", code, baseExpression(u));
  if (atom) {
    const at = plain.findIndex((a) => a.csCode_ === code);
    const order = at < 0 ? plain : plain.slice(at + 1).concat(plain.slice(0, at));
    const partner = order.find((a) => a.csCode_ !== code && a.csCode_ !== baseExpression(u) && sameDimension(a, u));
    if (partner) pair("atom", code, partner.csCode_);
    // A base unit is its own base expression: it converts to itself
    // under the prefix kilo instead.
    if (baseExpression(u) === code) pair("atom", code, "k" + code);
  }
}

for (const a of atoms) {
  if (!a.isMetric_ && !a.isBase_) continue; // the base units are metric, though ucum-lhc's table says otherwise
  for (const p of prefixes) {
    const code = p + a.csCode_;
    const u = unitOf(code);
    if (!u) {
      out.push({ kind: "prefixed", pair: code + " → ?", from: code, to: "", value: "1", error: "ucum-lhc does not read the prefixed atom" });
      continue;
    }
    pair("prefixed", code, baseExpression(u));
    pair("prefixed", code, a.csCode_);
  }
}

// Equivalents to moles, with a charge: every code of the table that counts
// equivalents, and eq under every prefix.
for (const code of codes.concat(prefixes.map((p) => p + "eq"))) {
  if (!/eq/.test(code) || /\[/.test(code)) continue;
  const u = unitOf(code);
  if (!u || !u.equivalentExp_) continue;
  pair("charge", code, code.replace(/eq/g, "mol"), { charge: 2 });
}

process.stdout.write(out.map((c) => JSON.stringify(c)).join("\n") + "\n");
