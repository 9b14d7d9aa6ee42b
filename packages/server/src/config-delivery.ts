/** Where rendered dashboards go out and how the renderer reaches this server. */
export interface DeliveryConfig {
  /** The mail server, smtp:// or smtps:// with its user and password in the URL (PLINTH_SMTP_URL); undefined: e-mail is off. */
  smtpUrl: string | undefined;
  /** The sender of notification e-mail (PLINTH_SMTP_FROM, default plinth@<the mail server's host>). */
  smtpFrom: string | undefined;
  /** Slack's Web API base, no trailing slash (PLINTH_SLACK_API_URL, default https://slack.com/api). */
  slackApiUrl: string;
  /**
   * How the renderer's browser reaches this server (PLINTH_RENDER_URL, an origin): required by a
   * worker that serves no HTTP; by default the address this process listens on.
   */
  renderUrl: string | undefined;
}

/** `fail` is config.ts's: a bad setting stops the start with its name. */
export function deliveryConfig(env: NodeJS.ProcessEnv, fail: (name: string, problem: string) => never): DeliveryConfig {
  const smtpUrl = set(env.PLINTH_SMTP_URL);
  if (smtpUrl !== undefined && !hasProtocol(smtpUrl, ['smtp:', 'smtps:'])) {
    fail('PLINTH_SMTP_URL', `"${redact(smtpUrl)}" is not an smtp:// or smtps:// URL (e.g. smtps://user:password@mail.example.com:465)`);
  }
  const slackApiUrl = (set(env.PLINTH_SLACK_API_URL) ?? 'https://slack.com/api').replace(/\/+$/, '');
  if (!hasProtocol(slackApiUrl, ['http:', 'https:']))
    fail('PLINTH_SLACK_API_URL', `"${redact(slackApiUrl)}" is not an http:// or https:// URL`);
  const renderUrl = set(env.PLINTH_RENDER_URL)?.replace(/\/+$/, '');
  if (renderUrl !== undefined && (!hasProtocol(renderUrl, ['http:', 'https:']) || new URL(renderUrl).origin !== renderUrl)) {
    fail('PLINTH_RENDER_URL', `"${redact(renderUrl)}" is not an http:// or https:// origin (e.g. http://127.0.0.1:4000)`);
  }
  return { smtpUrl, smtpFrom: set(env.PLINTH_SMTP_FROM), slackApiUrl, renderUrl };
}

function set(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function hasProtocol(value: string, protocols: string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A password in the URL never reaches an error message. */
function redact(value: string): string {
  return value.replace(/\/\/[^@/]*@/, '//***@');
}
