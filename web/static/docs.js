// Renders the API reference from /openapi.json with the vendored Swagger UI.
"use strict";
(function () {
  const root = document.getElementById("swagger-ui");
  if (!root || typeof window.SwaggerUIBundle !== "function") {
    if (root) root.textContent = "The reference could not be loaded; read /openapi.json instead.";
    return;
  }
  // The document names one server, this one: a selector would offer no
  // choice (and Swagger UI leaves it without a label).
  const noServerSelector = () => ({ wrapComponents: { ServersContainer: () => () => null } });
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.url,
    domNode: root,
    // Deep links put a link inside each operation's button (nested
    // interactive controls); operations stay reachable by keyboard without.
    deepLinking: false,
    validatorUrl: null,
    tryItOutEnabled: false,
    defaultModelsExpandDepth: 0,
    docExpansion: "list",
    plugins: [noServerSelector],
  });
})();
