import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { EgressPolicy } from '../../egress/policy.js';
import { startSmtpStandIn } from '../../test-support/smtp-stand-in.js';
import { LOCAL_EGRESS, testConfig } from '../../test-support/server.js';
import { sendEmail } from './email.js';
import { DeliveryError } from './errors.js';
import { INLINE_PNG_CID, type EmailInput } from './types.js';

/** E-mail through a local mail server (smtp-server) that requires the login of its URL. */
const smtp = await startSmtpStandIn();
/** A port that accepts connections and closes them at once: a mail server that is down mid-greeting. */
const hangUp: Server = createServer((socket) => socket.destroy());
await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
const hangUpPort = (hangUp.address() as { port: number }).port;
afterAll(async () => {
  await smtp.close();
  await new Promise((resolve) => hangUp.close(resolve));
});

const allowed = new EgressPolicy({ allow: LOCAL_EGRESS.split(','), allowLocalRepositories: false });
const strict = new EgressPolicy({ allow: [], allowLocalRepositories: false });
const configWith = (env: Record<string, string>) => testConfig(env).delivery;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%stand-in\n');
const message = (to: string, extra: Partial<EmailInput> = {}): EmailInput => ({
  accountId: 1,
  to,
  subject: 'Sales board',
  text: 'Your daily dashboard.',
  html: '<p>Your daily dashboard.</p>',
  link: 'http://acct.plinth.test:4000/embed/dashboard/abc',
  ...extra,
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as DeliveryError,
  );

describe('sendEmail', () => {
  it('delivers to the mail server with the PNG inline, the PDF attached and the link in both bodies', async () => {
    const config = configWith({ PLINTH_SMTP_URL: smtp.url, PLINTH_SMTP_FROM: 'Reports <reports@example.com>' });
    const sent = await sendEmail(config, allowed, message('ann@example.com', { png: PNG, pdf: PDF }));
    expect(sent.accepted).toEqual(['ann@example.com']);
    const mail = smtp.messages.find((m) => m.to.includes('ann@example.com'))!;
    expect(mail.from).toBe('reports@example.com');
    expect(mail.parsed.subject).toBe('Sales board');
    expect(mail.parsed.text).toContain('http://acct.plinth.test:4000/embed/dashboard/abc');
    expect(mail.parsed.html).toContain('href="http://acct.plinth.test:4000/embed/dashboard/abc"');
    expect(mail.parsed.html).toContain(`cid:${INLINE_PNG_CID}`);
    const png = mail.parsed.attachments.find((a) => a.contentType === 'image/png')!;
    expect(png.cid).toBe(INLINE_PNG_CID);
    expect(png.contentDisposition).toBe('inline');
    expect(png.content).toEqual(PNG);
    const pdf = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf')!;
    expect(pdf.filename).toBe('dashboard.pdf');
    expect(pdf.contentDisposition).toBe('attachment');
    expect(pdf.content).toEqual(PDF);
  });

  it('a mail server that refuses for now (4xx), is down or hangs up is a DeliveryError worth retrying', async () => {
    smtp.refuseNext(1, 451);
    const refused = await failure(sendEmail(configWith({ PLINTH_SMTP_URL: smtp.url }), allowed, message('bob@example.com')));
    expect(refused).toBeInstanceOf(DeliveryError);
    expect([refused!.retryable, refused!.message]).toEqual([true, expect.stringContaining('(451)')]);

    const closedPort = new URL(smtp.url);
    closedPort.port = '1';
    const down = await failure(sendEmail(configWith({ PLINTH_SMTP_URL: closedPort.toString() }), allowed, message('bob@example.com')));
    expect([down!.retryable, down!.message]).toEqual([true, expect.stringContaining('could not be reached')]);

    const hangsUp = await failure(
      sendEmail(configWith({ PLINTH_SMTP_URL: `smtp://127.0.0.1:${hangUpPort}` }), allowed, message('bob@example.com')),
    );
    expect(hangsUp!.retryable).toBe(true);
  });

  it('a permanent refusal (5xx), a wrong login or no mail server configured is a DeliveryError not worth retrying', async () => {
    smtp.refuseNext(1, 550);
    const refused = await failure(sendEmail(configWith({ PLINTH_SMTP_URL: smtp.url }), allowed, message('carl@example.com')));
    expect([refused!.retryable, refused!.message]).toEqual([false, expect.stringContaining('(550)')]);

    const wrongLogin = new URL(smtp.url);
    wrongLogin.password = 'wrong';
    const login = await failure(sendEmail(configWith({ PLINTH_SMTP_URL: wrongLogin.toString() }), allowed, message('carl@example.com')));
    expect(login!.retryable).toBe(false);
    expect(login!.message).not.toContain('wrong');

    const none = await failure(sendEmail(configWith({}), allowed, message('carl@example.com')));
    expect([none!.retryable, none!.message]).toEqual([false, 'E-mail is not configured on this server: its operator sets PLINTH_SMTP_URL']);
  });

  it('the egress policy refuses a mail server on a private address unless the operator allows it', async () => {
    const before = smtp.messages.length;
    const refused = await failure(sendEmail(configWith({ PLINTH_SMTP_URL: smtp.url }), strict, message('dan@example.com')));
    expect([refused!.retryable, refused!.message]).toEqual([
      false,
      "The mail server (PLINTH_SMTP_URL) is refused: 127.0.0.1 is a loopback address. The server's operator can allow it with PLINTH_EGRESS_ALLOW.",
    ]);
    expect(smtp.messages).toHaveLength(before);
    await sendEmail(configWith({ PLINTH_SMTP_URL: smtp.url }), allowed, message('dan@example.com'));
    expect(smtp.messages.at(-1)!.to).toEqual(['dan@example.com']);
  });

  it('PLINTH_SMTP_URL must be an smtp:// or smtps:// URL, and the error hides its password', () => {
    expect(() => configWith({ PLINTH_SMTP_URL: 'http://user:secret@mail.example.com' })).toThrow(
      'Invalid setting PLINTH_SMTP_URL: "http://***@mail.example.com" is not an smtp:// or smtps:// URL (e.g. smtps://user:password@mail.example.com:465)',
    );
  });
});
