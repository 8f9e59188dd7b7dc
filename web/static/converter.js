// The converter page: unit search as you type (an ARIA combobox on each unit
// field), conversions through the keyless same-origin route POST /web/convert,
// and the result with its exactness and, on request, its explanation. When
// two units convert only through what is measured (mg/dL to mmol/L), the
// answer says what it needs and a substance field appears, searched as you
// type like the units (GET /web/substances), with a field for the
// conditions of a gas when those are needed too.
// No API key is ever involved: the route is limited per client address.
"use strict";
(function () {
  const form = document.getElementById("convert");
  const value = document.getElementById("value");
  const from = document.getElementById("from");
  const to = document.getElementById("to");
  const precision = document.getElementById("precision");
  const explain = document.getElementById("explain");
  const result = document.getElementById("result");
  const resultBody = document.getElementById("result-body");
  const status = document.getElementById("unit-status");
  const auto = document.getElementById("auto");
  const autoOptions = document.getElementById("auto-options");
  const usage = document.getElementById("usage");
  const region = document.getElementById("region");
  const browserLocale = navigator.language || "en";
  document.getElementById("browser-locale").textContent = browserLocale;
  const convertStatus = document.getElementById("convert-status");
  const substance = document.getElementById("substance");
  const substanceField = document.getElementById("substance-field");
  const conditions = document.getElementById("conditions");
  const conditionsField = document.getElementById("conditions-field");

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  // One combobox: the text field, its listbox and the search behind it
  // (GET /web/units, or for the substance field /web/substances, which
  // answers in the same shape). prefer() names the category to list first
  // (the other field's); the box remembers the category of the unit picked
  // in it.
  function combobox(input, prefer, path = "/web/units", what = "unit") {
    const list = document.getElementById(input.getAttribute("aria-controls"));
    const box = { category: "", close };
    let options = []; // {symbol, category, li}
    let active = -1;
    let timer = 0;
    let seq = 0;
    // dismissed is set by Escape: answers still arriving for what was
    // typed before it fill the list, but do not open it again, until the
    // next keystroke.
    let dismissed = false;

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }
    function open() {
      if (options.length === 0) return;
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }
    function setActive(i) {
      if (active >= 0 && options[active]) options[active].li.setAttribute("aria-selected", "false");
      active = i;
      if (i < 0) {
        input.removeAttribute("aria-activedescendant");
        return;
      }
      const li = options[i].li;
      li.setAttribute("aria-selected", "true");
      input.setAttribute("aria-activedescendant", li.id);
      li.scrollIntoView({ block: "nearest" });
    }
    function pick(i) {
      input.value = options[i].symbol;
      box.category = options[i].category;
      close();
      input.dispatchEvent(new CustomEvent("unit-picked"));
    }
    function option(m, idx) {
      const li = el("li", { id: list.id + "-" + idx, role: "option", "aria-selected": "false", "data-symbol": m.symbol },
        el("span", {}, el("span", { class: "sym" }, m.symbol), " ", m.local || m.name,
          m.matched && m.matched !== (m.local || m.name) ? " (" + m.matched + ")" : null),
        el("span", { class: "cat" }, m.category_name));
      li.addEventListener("mousedown", (ev) => ev.preventDefault()); // keep focus in the field
      li.addEventListener("click", () => pick(idx));
      return li;
    }
    function render(ans) {
      // An answer that arrives after the arrow keys chose an option (the
      // answer to what was typed last, after one to an earlier prefix)
      // keeps that option chosen when it lists it: Enter then picks what
      // the field shows as chosen.
      const chosen = active >= 0 && options[active] ? options[active].symbol : null;
      list.replaceChildren();
      options = [];
      active = -1;
      const add = (m) => {
        const li = option(m, options.length);
        options.push({ symbol: m.symbol, category: m.category, li });
        list.append(li);
      };
      if (ans.ambiguous) {
        list.append(el("li", { role: "presentation", class: "heading" },
          "“" + ans.ambiguous.name + "” is ambiguous; pick one:"));
        ans.ambiguous.candidates.forEach(add);
      }
      const shown = new Set(options.map((o) => o.symbol));
      ans.data.filter((m) => !shown.has(m.symbol)).forEach(add);
      if (options.length && !dismissed) open();
      else close();
      const again = chosen === null ? -1 : options.findIndex((o) => o.symbol === chosen);
      if (again >= 0 && !list.hidden) setActive(again);
      const n = options.length;
      status.textContent = input.value.trim() === "" ? ""
        : (ans.ambiguous ? "“" + ans.ambiguous.name + "” is ambiguous. " : "") +
          (n === 0 ? "No " + what + " matches; the text is sent as typed." : n + " " + what + (n === 1 ? "" : "s") + " found; use the arrow keys to choose.");
    }
    async function lookup() {
      const q = input.value.trim();
      const mine = ++seq;
      if (q === "") {
        list.dataset.query = "";
        render({ data: [] });
        return;
      }
      try {
        const cat = prefer();
        const res = await fetch(path + "?q=" + encodeURIComponent(q) + (cat ? "&category=" + encodeURIComponent(cat) : ""),
          { credentials: "same-origin" });
        if (!res.ok) return;
        const ans = await res.json();
        if (mine !== seq) return;
        // Typing the exact symbol counts as picking it.
        const exact = ans.data.find((m) => m.symbol === q);
        box.category = exact ? exact.category : "";
        if (document.activeElement === input) {
          list.dataset.query = q; // what the list answers (the tests wait on it)
          render(ans);
        }
      } catch (e) {
        // Searching is a convenience; the field still takes any text.
      }
    }
    input.addEventListener("input", () => {
      dismissed = false;
      box.category = "";
      clearTimeout(timer);
      timer = setTimeout(lookup, 120);
    });
    input.addEventListener("keydown", (ev) => {
      switch (ev.key) {
        case "ArrowDown":
          ev.preventDefault();
          dismissed = false;
          if (list.hidden) {
            open();
            if (options.length) setActive(0);
          } else if (options.length) setActive((active + 1) % options.length);
          break;
        case "ArrowUp":
          ev.preventDefault();
          if (!list.hidden && options.length) setActive(active <= 0 ? options.length - 1 : active - 1);
          break;
        case "Enter":
          if (!list.hidden && active >= 0) {
            ev.preventDefault();
            pick(active);
          }
          break;
        case "Escape":
          dismissed = true;
          if (!list.hidden) {
            ev.preventDefault();
            close();
          }
          break;
        case "Tab":
          close();
          break;
      }
    });
    input.addEventListener("blur", close);
    return box;
  }

  // The free-text field: the whole question as people write it, answered
  // as they type (after a pause), in the browser's language: the browser
  // sends its Accept-Language, and the answer's result.text is written
  // in it.
  const question = document.getElementById("question");
  const askResult = document.getElementById("ask-result");
  const askBody = document.getElementById("ask-body");
  let askSeq = 0;
  let askTimer = 0;

  async function ask() {
    const text = question.value.trim();
    const mine = ++askSeq;
    if (text === "") {
      askResult.hidden = true;
      askBody.replaceChildren();
      return;
    }
    let res, ans;
    try {
      res = await fetch("/web/convert", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ q: text }),
      });
      ans = await res.json();
    } catch (e) {
      return; // typing goes on; the next pause asks again
    }
    if (mine !== askSeq) return;
    askResult.hidden = false;
    if (!res.ok || !ans.data) {
      const err = ans.error || {};
      const nodes = [el("p", { class: "ask-error" }, err.message || "That could not be read.")];
      if (Array.isArray(err.candidates) && err.candidates.length) {
        nodes.push(el("p", { class: "hint" }, "It could mean: ", ...err.candidates.map((c, i) => [i ? ", " : "", el("code", {}, c)]).flat()));
      }
      if (Array.isArray(err.suggestions) && err.suggestions.length) {
        nodes.push(el("p", { class: "hint" }, "Did you mean: ", ...err.suggestions.map((c, i) => [i ? ", " : "", el("code", {}, c)]).flat()));
      }
      askBody.replaceChildren(...nodes);
      return;
    }
    const d = ans.data;
    const parts = d.result.parts
      ? d.result.parts.map((p) => p.value + " " + p.unit).join(" ")
      : d.result.value + " " + d.result.unit;
    askBody.replaceChildren(
      el("p", { class: "answer-text" }, el("output", { for: "question", id: "ask-answer" }, d.result.text || parts)),
      el("p", {},
        d.exact ? el("span", { class: "badge exact" }, "Exact") : el("span", { class: "badge rounded" }, "Rounded"),
        " ", el("span", { id: "ask-understood" }, d.input.value + " " + d.input.unit + " = " + parts),
        " · ", el("a", { href: "/catalog/" + encodeURIComponent(d.category) }, d.category)),
      // A unit read by a stated rule (the region's pint, a food's portion)
      // says so, as the API's input.assumed does.
      d.input.assumed ? el("p", { class: "hint", id: "ask-assumed" }, "Read as: " + d.input.assumed) : null);
    history.replaceState(null, "", "/?" + new URLSearchParams({ q: text }).toString());
  }

  question.addEventListener("input", () => {
    clearTimeout(askTimer);
    askTimer = setTimeout(ask, 250);
  });
  document.getElementById("ask").addEventListener("submit", (ev) => {
    ev.preventDefault();
    clearTimeout(askTimer);
    ask();
  });

  let fromBox, toBox;
  fromBox = combobox(from, () => toBox.category);
  toBox = combobox(to, () => fromBox.category);
  const substanceBox = combobox(substance, () => "", "/web/substances", "substance");

  // needFields shows the fields a conversion said it needs (error.details.needs):
  // the substance for a molar mass, a density or a charge number, and the
  // conditions of a gas.
  function needFields(needs) {
    if (!Array.isArray(needs)) return null;
    let first = null;
    if (needs.some((n) => n === "molar_mass" || n === "density" || n === "charge")) {
      substanceField.hidden = false;
      if (!substance.value.trim()) first = substance;
    }
    if (needs.includes("conditions")) {
      conditionsField.hidden = false;
      if (!first && !conditions.value.trim()) first = conditions;
    }
    return first;
  }

  document.getElementById("swap").addEventListener("click", () => {
    [from.value, to.value] = [to.value, from.value];
    [fromBox.category, toBox.category] = [toBox.category, fromBox.category];
    fromBox.close();
    toBox.close();
  });

  // Auto: the target is "auto", chosen by usage and region (or the
  // browser's locale) from the unit preferences of GET /v1/preferences.
  let toBeforeAuto = "";
  let usagesFor = null; // the category whose usages the select lists
  async function loadUsages() {
    const cat = fromBox.category || "";
    if (usagesFor === cat) return;
    usagesFor = cat;
    let names = [];
    try {
      const res = await fetch("/v1/preferences" + (cat ? "?category=" + encodeURIComponent(cat) : ""), { credentials: "same-origin" });
      const ans = await res.json();
      for (const s of Array.isArray(ans.data) ? ans.data : []) if (!names.includes(s.usage)) names.push(s.usage);
    } catch (e) {
      names = [];
    }
    const keep = usage.value;
    usage.replaceChildren(el("option", { value: "" }, "default"),
      ...names.filter((n) => n !== "default").map((n) => el("option", { value: n }, n)));
    if (names.includes(keep)) usage.value = keep;
  }
  function setAuto(on) {
    auto.checked = on;
    autoOptions.hidden = !on;
    if (on) {
      if (to.value.trim() !== "auto") toBeforeAuto = to.value;
      to.value = "auto";
      loadUsages();
    } else if (to.value.trim() === "auto") {
      to.value = toBeforeAuto;
    }
    to.readOnly = on;
    to.setAttribute("aria-readonly", on ? "true" : "false");
  }
  auto.addEventListener("change", () => setAuto(auto.checked));
  from.addEventListener("change", () => {
    if (auto.checked) loadUsages();
  });

  function definitionText(d) {
    if (typeof d === "string") return d;
    if (!d || typeof d !== "object") return String(d);
    if (d.kind === "linear") return "× " + d.factor + " " + (d.unit || "");
    if (d.kind === "affine") return "× " + d.factor + " + " + d.offset + " " + (d.unit || "");
    if (d.kind === "formula") return "to " + (d.unit || "") + ": " + d.to + "; back: " + d.from;
    if (d.kind === "base") return "base unit";
    return JSON.stringify(d);
  }

  function explainView(x) {
    const sec = el("section", { class: "explain", "aria-labelledby": "explain-title" },
      el("h3", { id: "explain-title" }, "How this was computed"));
    const facts = el("dl", { class: "facts" });
    const fact = (k, ...v) => facts.append(el("dt", {}, k), el("dd", {}, ...v));
    const exactness = (isExact) => (isExact === false ? " (rounded to 50 significant digits)" : " (exact)");
    if (x.kind) fact("Kind", x.kind === "linear" ? "linear: result = value × factor"
      : x.kind === "affine" ? "affine: result = value × factor + offset" : x.kind);
    if (x.factor !== undefined) {
      fact("Factor", el("code", {}, x.factor));
      facts.lastChild.append(exactness(x.factor_exact));
    }
    if (x.offset !== undefined) {
      fact("Offset", el("code", {}, x.offset));
      facts.lastChild.append(exactness(x.offset_exact));
    }
    for (const f of Array.isArray(x.formulas) ? x.formulas : []) {
      fact("Formula of " + f.unit, el("code", {}, "to " + f.reference + ": " + f.to), "; ", el("code", {}, "back: " + f.from));
    }
    if (x.mixed) {
      fact("Parts", x.mixed.parts.map((p) => p.unit + " = " + p.per_last + " " + x.mixed.last_part).join(", "),
        " (the factor leads to " + x.mixed.last_part + ")");
    }
    if (x.preference) {
      const pr = x.preference;
      fact("Chosen", pr.reason);
      fact("Preferences", pr.quantity + " / " + pr.matched_usage + " in " + pr.matched_region + ": ",
        pr.units.map((u, i) => (i === pr.chosen ? "▸ " : "") + u.unit + (u.geq ? " from " + u.geq + " " + u.geq_unit : "")).join(", "));
      fact("Region", pr.region + " (" + ({ region: "as given", locale: "the locale's region", "locale-ms": "the locale's measurement system",
        "locale-rg": "the locale's region override", likely: "the likely region of the locale's language", default: "the default" }[pr.region_from] || pr.region_from) + ")");
      fact("Data", pr.source);
    }
    if (x.catalog_version) fact("Catalog", el("code", {}, x.catalog_version));
    sec.append(facts);
    if (Array.isArray(x.steps) && x.steps.length) {
      const tbody = el("tbody");
      for (const s of x.steps) {
        const unit = s.exponent !== undefined && s.exponent !== 1 ? s.unit + "^" + s.exponent : s.unit;
        tbody.append(el("tr", {},
          el("th", { scope: "row" }, el("a", { href: "/catalog/units/" + encodeURIComponent(s.unit) }, el("code", {}, unit))),
          el("td", {}, el("code", {}, definitionText(s.definition))),
          el("td", {}, s.exact ? "exact" : "measured"),
          el("td", { class: "source" }, s.source || "")));
      }
      sec.append(el("div", { class: "table-wrap", role: "region", "aria-label": "Definitions used", tabindex: "0" },
        el("table", {},
          el("thead", {}, el("tr", {}, ...["Unit", "Definition", "Exact", "Source"].map((h) => el("th", { scope: "col" }, h)))),
          tbody)));
    }
    const sub = x.substance;
    if (sub && Array.isArray(sub.values) && sub.values.length) {
      const tbody = el("tbody");
      for (const v of sub.values) {
        tbody.append(el("tr", { "data-property": v.property },
          el("th", { scope: "row" }, v.property.replace("_", " ")),
          el("td", {}, el("code", {}, v.value), v.sum ? " = " + v.sum : null, v.conditions ? " at " + v.conditions : null),
          el("td", { class: "source" }, v.source || "")));
      }
      const name = sub.id ? el("a", { href: "/catalog/substances?q=" + encodeURIComponent(sub.id) + "#substance-" + encodeURIComponent(sub.id) }, sub.id)
        : sub.formula ? el("code", {}, sub.formula) : "the request";
      sec.append(el("p", {}, "Values of ", name, " used (measured, so the result is not exact):"),
        el("div", { class: "table-wrap", role: "region", "aria-label": "Substance values used", tabindex: "0" },
          el("table", { class: "substance-values" },
            el("thead", {}, el("tr", {}, ...["Value", "Used", "Source"].map((h) => el("th", { scope: "col" }, h)))),
            tbody)));
    }
    return sec;
  }

  // show puts the answer on the page; said is what a screen reader hears
  // (the result region appears only after the first answer, and a region
  // that appears is not reliably announced).
  function show(said, ...nodes) {
    resultBody.replaceChildren(...nodes);
    result.hidden = false;
    convertStatus.textContent = said;
  }

  // The field an error is about: the one whose text the message quotes.
  function fieldOf(message) {
    const m = /"([^"]*)"/.exec(message || "");
    if (m && to.value.trim().toLowerCase() === m[1].toLowerCase() && from.value.trim().toLowerCase() !== m[1].toLowerCase()) return to;
    return from;
  }

  function choices(label, symbols, field) {
    const ul = el("ul", { class: "choices" });
    for (const s of symbols) {
      const b = el("button", { type: "button", class: "secondary", "data-symbol": s }, "Use ", el("code", {}, s));
      b.addEventListener("click", () => {
        field.value = s;
        convert();
      });
      ul.append(el("li", {}, b));
    }
    return [el("p", {}, label), ul];
  }

  function showError(status, err, retryAfter) {
    const nodes = [el("p", { class: "error", role: "alert" }, err.message || "The conversion failed.")];
    const missing = needFields(err.details && err.details.needs);
    if (missing) {
      nodes.push(el("p", { class: "hint", id: "needs-hint" }, "Fill in the ",
        el("a", { href: "#" + missing.id }, missing === substance ? "substance" : "gas conditions"), " field above, then convert again."));
    }
    if (err.code) nodes.push(el("p", { class: "hint" }, "Code ", el("code", {}, err.code), " (HTTP " + status + ")"));
    if (Array.isArray(err.candidates) && err.candidates.length) {
      nodes.push(...choices("It could mean:", err.candidates, fieldOf(err.message)));
    }
    if (Array.isArray(err.suggestions)) {
      nodes.push(...(err.suggestions.length ? choices("Did you mean:", err.suggestions, fieldOf(err.message))
        : [el("p", {}, "No unit of the catalog comes close; ", el("a", { href: "/catalog" }, "browse the catalog"), ".")]));
    }
    if (status === 429 && retryAfter) nodes.push(el("p", {}, "Try again in " + retryAfter + " s."));
    show("", ...nodes); // the error paragraph is an alert
  }

  // Conversions may answer out of order; only the latest one is shown.
  let convertSeq = 0;

  async function convert() {
    const mine = ++convertSeq;
    const p = precision.value.trim();
    if (!/^[0-9]+$/.test(p) || +p < 1 || +p > 50) {
      showError(0, { message: "Significant digits must be a whole number from 1 to 50." });
      return;
    }
    const body = { value: value.value.trim(), from: from.value.trim(), to: to.value.trim(), precision: +p };
    if (explain.checked) body.explain = true;
    if (!substanceField.hidden && substance.value.trim()) body.substance = substance.value.trim();
    if (!conditionsField.hidden && conditions.value.trim()) body.conditions = conditions.value.trim();
    if (body.to === "auto") {
      if (usage.value) body.usage = usage.value;
      if (region.value.trim()) body.region = region.value.trim();
      else body.locale = browserLocale;
    }
    let res, ans;
    try {
      res = await fetch("/web/convert", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      ans = await res.json();
    } catch (e) {
      if (mine !== convertSeq) return;
      showError(0, { message: "The server could not be reached or did not answer with JSON." });
      return;
    }
    if (mine !== convertSeq) return; // a later conversion was started
    if (!res.ok || !ans.data) {
      showError(res.status, ans.error || {}, res.headers.get("Retry-After"));
      return;
    }
    const d = ans.data;
    const unitLink = (u) => el("a", { href: "/catalog/units/" + encodeURIComponent(u) }, u);
    // A mixed result is a list of parts (5 ft 3.5 in), each with its unit.
    const parts = Array.isArray(d.result.parts) ? d.result.parts : null;
    const answer = parts
      ? el("p", { class: "answer" }, ...parts.map((pt) => el("span", { class: "part" }, el("output", { for: "value from to precision" }, pt.value), " ", unitLink(pt.unit))))
      : el("p", { class: "answer" }, el("output", { for: "value from to precision" }, d.result.value), " ", unitLink(d.result.unit));
    const resultText = parts ? parts.map((pt) => pt.value + " " + pt.unit).join(" ") : d.result.value + " " + d.result.unit;
    const inputText = Array.isArray(d.input.parts) ? d.input.parts.map((pt) => pt.value + " " + pt.unit).join(" ")
      : d.input.value + " " + d.input.unit;
    const nodes = [
      answer,
      el("p", {},
        d.exact ? el("span", { class: "badge exact" }, "Exact")
          : el("span", { class: "badge rounded" }, "Rounded to " + p + " significant digit" + (p === "1" ? "" : "s")),
        " ", inputText + " = " + resultText,
        " · ", el("a", { href: "/catalog/" + encodeURIComponent(d.category) }, d.category)),
    ];
    if (!d.exact) nodes.push(el("p", { class: "hint" }, "The exact result has more digits than shown; it was rounded once, half to even."));
    if (d.explain) nodes.push(explainView(d.explain));
    const rounded = d.exact ? ", exact." : ", rounded to " + p + " significant digits.";
    show(inputText + " = " + resultText + rounded, ...nodes);
    const q = new URLSearchParams({ value: body.value, from: body.from, to: body.to });
    if (body.substance) q.set("substance", body.substance);
    if (body.conditions) q.set("conditions", body.conditions);
    if (p !== "34") q.set("precision", p);
    if (explain.checked) q.set("explain", "true");
    if (body.usage) q.set("usage", body.usage);
    if (body.region) q.set("region", body.region);
    history.replaceState(null, "", "/?" + q.toString());
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    fromBox.close();
    toBox.close();
    substanceBox.close();
    convert();
  });

  // A shared address (/?value=60&from=mph&to=km%2Fh, or /?q=5%20ft%20to%20cm)
  // fills the form and converts.
  const params = new URLSearchParams(location.search);
  if (params.has("q")) {
    question.value = params.get("q");
    ask();
  }
  if (params.has("value")) value.value = params.get("value");
  if (params.has("from")) from.value = params.get("from");
  if (params.has("to")) to.value = params.get("to");
  if (params.has("precision")) precision.value = params.get("precision");
  if (params.has("substance")) {
    substance.value = params.get("substance");
    substanceField.hidden = false;
  }
  if (params.has("conditions")) {
    conditions.value = params.get("conditions");
    conditionsField.hidden = false;
  }
  if (params.get("explain") === "true") explain.checked = true;
  if (params.has("region")) region.value = params.get("region");
  if (to.value.trim() === "auto") {
    setAuto(true);
    if (params.has("usage")) {
      // The select is filled from the preferences; until then it holds
      // the usage of the address alone.
      usage.replaceChildren(el("option", { value: "" }, "default"), el("option", { value: params.get("usage") }, params.get("usage")));
      usage.value = params.get("usage");
      usagesFor = null;
    }
  }
  if (from.value && to.value) convert();
})();
