// /docs: the reference is rendered on the server; this loads the vendored
// Swagger UI, the interactive explorer of /openapi.json, when asked for.
"use strict";
(function () {
  const button = document.getElementById("explorer-open");
  const root = document.getElementById("swagger-ui");
  if (!button || !root) return;
  button.addEventListener("click", () => {
    button.disabled = true;
    button.textContent = "Loading the explorer…";
    const style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = button.dataset.styleUrl;
    document.head.appendChild(style);
    const script = document.createElement("script");
    script.src = button.dataset.script;
    script.onload = () => {
      button.hidden = true;
      open();
      root.focus();
    };
    script.onerror = () => {
      button.textContent = "The explorer could not be loaded; read /openapi.json instead.";
    };
    document.head.appendChild(script);
  });

  function open() {
    if (typeof window.SwaggerUIBundle !== "function") return;
    root.tabIndex = -1;
    // The document names one server, this one: a selector would offer no
    // choice (and Swagger UI leaves it without a label).
    const noServerSelector = () => ({ wrapComponents: { ServersContainer: () => () => null } });
    window.ui = window.SwaggerUIBundle({
      url: root.dataset.url,
      domNode: root,
      // Deep links put a link inside each operation's button (nested
      // interactive controls); operations stay reachable by keyboard without.
      deepLinking: false,
      // The highlighter's colours fall below AA contrast; plain text reads well.
      syntaxHighlight: false,
      validatorUrl: null,
      tryItOutEnabled: false,
      defaultModelsExpandDepth: 0,
      docExpansion: "list",
      plugins: [noServerSelector],
    });

    // Swagger UI leaves a few controls without an accessible name and its
    // scrolling code blocks out of the tab order; name and reach them as they
    // appear.
    function mend(scope) {
      for (const sel of scope.querySelectorAll("select:not([aria-label]):not([aria-labelledby])")) {
        if (sel.labels && sel.labels.length) continue;
        const ctl = sel.closest(".response-control-examples, .examples-select, .content-type-wrapper, .response-control-media-type, label, td, div");
        const text = sel.classList.contains("examples-select-element") ? "Example"
          : (ctl && ctl.querySelector("small, .response-control-media-type__title, .examples-select__section-label")
            ? ctl.querySelector("small, .response-control-media-type__title, .examples-select__section-label").textContent.trim()
            : "Media type");
        sel.setAttribute("aria-label", text || "Choice");
      }
      for (const pre of scope.querySelectorAll("pre:not([tabindex])")) {
        pre.setAttribute("tabindex", "0");
      }
    }
    new MutationObserver(() => mend(root)).observe(root, { childList: true, subtree: true });
  }
})();
