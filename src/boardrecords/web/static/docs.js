// Starts the OpenAPI page (Swagger UI, shipped by the package swagger-ui-bundle) on the application's schema.
(function () {
  "use strict";
  window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
})();
