// The API documentation page: Swagger UI (its files from the fastapi-offline package)
// on the server's own /openapi.json. A file, not an inline script: the CSP allows none.
window.ui = SwaggerUIBundle({ url: "../openapi.json", dom_id: "#swagger-ui", deepLinking: true });
