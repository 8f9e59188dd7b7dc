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
