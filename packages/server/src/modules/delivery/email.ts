import { createTransport } from 'nodemailer';
import type { DeliveryConfig } from '../../config-delivery.js';
import { EgressRefusedError, type EgressPolicy } from '../../egress/policy.js';
import { DeliveryError } from './errors.js';
import { INLINE_PNG_CID, type EmailInput, type EmailSent } from './types.js';

const WHAT = 'The mail server (PLINTH_SMTP_URL)';
/** A mail server slower than this is treated as down, and the message tried again later. */
const TIMEOUT_MS = 30_000;
/** Socket and DNS failures: the server is down or unreachable for now. */
const TRANSIENT = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH']);

/**
 * One message through the operator's mail server: the host is checked by the egress policy and
 * the connection made to the very address checked (TLS still verifies the name); the PNG goes
 * inline (cid) and the PDF attached, with the dashboard's link in both bodies.
 */
export async function sendEmail(config: DeliveryConfig, egress: EgressPolicy, input: EmailInput): Promise<EmailSent> {
  if (!config.smtpUrl) throw new DeliveryError('E-mail is not configured on this server: its operator sets PLINTH_SMTP_URL', false);
  const url = new URL(config.smtpUrl);
  const secure = url.protocol === 'smtps:';
  let address: string;
  try {
    [address = url.hostname] = await egress.addressesOf(url.hostname, WHAT);
  } catch (error) {
    if (error instanceof EgressRefusedError) throw new DeliveryError(error.message, false, { cause: error });
    throw error;
  }
  const transport = createTransport({
    host: address,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    tls: { servername: url.hostname },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    const info = await transport.sendMail(message(config, url.hostname, input));
    return {
      messageId: info.messageId,
      accepted: (info.accepted as (string | { address: string })[]).map((a) => (typeof a === 'string' ? a : a.address)),
    };
  } catch (error) {
    throw asDeliveryError(error);
  } finally {
    transport.close();
  }
}

function message(config: DeliveryConfig, host: string, input: EmailInput) {
  const link = escapeHtml(input.link);
  const text = input.text.includes(input.link) ? input.text : `${input.text}\n\n${input.link}`;
  let html = input.html;
  if (input.png && !html.includes(`cid:${INLINE_PNG_CID}`)) html += `<p><img src="cid:${INLINE_PNG_CID}" alt="The dashboard"></p>`;
  if (!html.includes(input.link) && !html.includes(link)) html += `<p><a href="${link}">Open the dashboard</a></p>`;
  return {
    from: config.smtpFrom ?? `Plinth <plinth@${host}>`,
    to: input.to,
    subject: input.subject,
    text,
    html,
    attachments: [
      ...(input.png ? [{ filename: 'dashboard.png', content: input.png, contentType: 'image/png', cid: INLINE_PNG_CID }] : []),
      ...(input.pdf ? [{ filename: 'dashboard.pdf', content: input.pdf, contentType: 'application/pdf' }] : []),
    ],
  };
}

/** A 4xx reply or a connection that failed may pass later; a 5xx reply (bad address, bad login) never will. */
function asDeliveryError(error: unknown): DeliveryError {
  const { code, responseCode, message } = error as { code?: string; responseCode?: number; message?: string };
  const reason = message ?? String(error);
  if (typeof responseCode === 'number') {
    const retryable = responseCode >= 400 && responseCode < 500;
    return new DeliveryError(`The mail server refused the message (${responseCode}): ${reason}`, retryable, { cause: error });
  }
  if (code === 'EAUTH')
    return new DeliveryError(`The mail server refused the login of PLINTH_SMTP_URL: ${reason}`, false, { cause: error });
  const retryable = code === undefined || TRANSIENT.has(code);
  return new DeliveryError(`The mail server could not be reached: ${reason}`, retryable, { cause: error });
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
