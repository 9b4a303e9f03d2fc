import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { changeSignal, until } from './eventually';

export type ReceivedMail = { to: string; subject: string; text: string; from: string };

/**
 * A real SMTP server in this process: the app's mailer connects to it over TCP and speaks SMTP,
 * and each received message is parsed as a mail client would.
 */
export async function startSmtpServer(): Promise<{
  url: string;
  messages: ReceivedMail[];
  /** Waits for the next mail to `to` (case-insensitive) received after `since` messages. */
  waitForMail: (
    to: string,
    options?: { timeoutMs?: number; since?: number },
  ) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const received = changeSignal();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail: ParsedMail) => {
          const to = Array.isArray(mail.to)
            ? mail.to.map((a) => a.text).join(', ')
            : (mail.to?.text ?? '');
          messages.push({
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            from: mail.from?.text ?? '',
          });
          received.notify();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  function waitForMail(to: string, { timeoutMs = 10_000, since = 0 } = {}): Promise<ReceivedMail> {
    return until(
      () => messages.slice(since).find((m) => m.to.toLowerCase().includes(to.toLowerCase())),
      { changes: received.changes, what: `a mail to ${to}`, ms: timeoutMs },
    );
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code in a verification mail's text body. */
export function codeFromMail(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no 6-digit code in mail: ${mail.text}`);
  return match[1];
}
