/**
 * The server's root: what this server is and where its API is described, instead of a JSON 404
 * for a person who opens the address. No script, no framing (the page policy).
 */
export function homePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plinth</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; color: #1d2433; }
code { background: #eef0f5; padding: 0 .25rem; border-radius: 3px; }
</style>
</head>
<body>
<main>
<h1>Plinth</h1>
<p>This is a Plinth server: a self-hostable analytics platform. It serves the platform API, SCIM 2.0, the data API of each deployment, and the embedded analytics pages.</p>
<ul>
<li>The API's OpenAPI document: <a href="/api/v1/spec"><code>/api/v1/spec</code></a></li>
<li>The command-line client: <code>plinth --help</code></li>
<li>Embedded dashboards open at <code>/embed/dashboard/{publicId}?session={sessionId}</code>, with a session your backend mints.</li>
</ul>
</main>
</body>
</html>
`;
}
