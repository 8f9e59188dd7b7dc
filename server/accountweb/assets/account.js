// The copy button of a newly created key. No other script runs on the
// account page; the Content-Security-Policy allows only this file.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const btn of document.querySelectorAll("button[data-copy]")) {
    btn.addEventListener("click", async () => {
      const src = document.getElementById(btn.dataset.copy);
      const status = document.getElementById("copy-status");
      try {
        await navigator.clipboard.writeText(src.textContent.trim());
        if (status) status.textContent = "Copied.";
      } catch {
        const range = document.createRange();
        range.selectNodeContents(src);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        if (status) status.textContent = "Selected: press Ctrl+C (or ⌘C) to copy.";
      }
    });
  }
});

// The Units tab: the unit being written is checked as it is typed (POST
// /account/units/check, which stores nothing), its problems listed with
// their lines, and a conversion through it previewed.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("unit-editor");
  if (!form) return;
  const problems = document.getElementById("unit-problems");
  const preview = document.getElementById("unit-preview");
  let timer = 0;
  let seq = 0;
  const check = async () => {
    const mine = ++seq;
    const body = new URLSearchParams(new FormData(form));
    let ans;
    try {
      const resp = await fetch("/account/units/check", { method: "POST", body, credentials: "same-origin" });
      if (!resp.ok) return;
      ans = await resp.json();
    } catch {
      return;
    }
    if (mine !== seq) return; // a later check is on its way
    problems.replaceChildren();
    if (ans.ok) {
      const p = document.createElement("p");
      p.className = "ok";
      p.textContent = "my:" + ans.symbol + " is valid.";
      problems.append(p);
    } else {
      const ul = document.createElement("ul");
      for (const pr of ans.problems || []) {
        const li = document.createElement("li");
        li.textContent = (pr.line ? "line " + pr.line + ", column " + pr.column + ": " : "") + pr.message;
        ul.append(li);
      }
      problems.append(ul);
    }
    preview.textContent = ans.preview || "";
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  };
  form.addEventListener("input", later);
  check();
});
