import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's sender and recipients, as the client gave them (MAIL FROM, RCPT TO). */
  from: string;
  to: string[];
  /** The message as mailparser reads it: subject, text, html, attachments (inline ones with their cid). */
  parsed: ParsedMail;
}

export interface SmtpStandIn {
  /** `smtp://user:password@127.0.0.1:<port>`, for PLINTH_SMTP_URL. */
  url: string;
  user: string;
  password: string;
  messages: ReceivedMail[];
  /** The next `count` messages are refused with this SMTP reply code (4xx: try later, 5xx: never). */
  refuseNext(count: number, code: number): void;
  /** Resolves once `count` messages in all have arrived. */
  received(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A local mail server (the smtp-server package) that requires the user and password of its URL,
 * collects each message parsed, and refuses on demand with the reply code a test names.
 */
export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const user = 'plinth';
  const password = 'stand-in-password';
  const messages: ReceivedMail[] = [];
  const refusals: number[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];

  const server = new SMTPServer({
    secure: false,
    // Plain-text login on a loopback port: nothing to protect, and no certificate to make.
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) return callback(null, { user });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream, { keepCidLinks: true }).then(
        (parsed) => {
          const code = refusals.shift();
          if (code !== undefined) return callback(Object.assign(new Error(`Refused for the test (${code})`), { responseCode: code }));
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            parsed,
          });
          for (const w of waiting.filter((w) => messages.length >= w.count)) w.resolve();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo).port;

  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    user,
    password,
    messages,
    refuseNext: (count, code) => refusals.push(...Array.from({ length: count }, () => code)),
    received: (count) =>
      messages.length >= count
        ? Promise.resolve(messages.slice())
        : new Promise((resolve) => waiting.push({ count, resolve: () => resolve(messages.slice()) })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
