/** Server-rendered pages of the login: plain HTML forms, no scripts, every value escaped. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2328}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin:1rem .5rem 0 0;padding:.5rem 1rem;font:inherit}.error{color:#b42318}.code{font:600 1.5rem monospace;letter-spacing:.1em}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Plinth</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

function errorLine(error: string | undefined): string {
  return error ? `<p class="error" role="alert">${escapeHtml(error)}</p>\n` : '';
}

export function devicePage(options: {
  action: string;
  userCode?: string;
  clientName?: string | null;
  email?: string;
  error?: string;
}): string {
  const client = options.clientName ? `<p>Requested by <strong>${escapeHtml(options.clientName)}</strong>.</p>\n` : '';
  return layout(
    'Approve a device login',
    `<p>Check that the code below is the one your terminal shows, then sign in to approve or deny it.</p>
${client}${errorLine(options.error)}<form method="post" action="${escapeHtml(options.action)}">
<label for="user_code">Code</label><input id="user_code" name="user_code" class="code" autocomplete="off" required value="${escapeHtml(options.userCode ?? '')}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function donePage(title: string, message: string): string {
  return layout(title, `<p>${escapeHtml(message)}</p>`);
}

export function invitePage(options: { action: string; token: string; email?: string; error?: string }): string {
  const who = options.email ? `<p>Choose a password for <strong>${escapeHtml(options.email)}</strong>.</p>\n` : '';
  return layout(
    'Set your password',
    `${who}${errorLine(options.error)}<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<label for="password">New password (at least 12 characters)</label><input id="password" name="password" type="password" autocomplete="new-password" required>
<label for="confirm">Repeat it</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">Set password</button>
</form>`,
  );
}
