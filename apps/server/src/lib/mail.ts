import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { LOCAL_ONLY } from './logger';

export type Mail = { to: string; subject: string; text: string };

export type Mailer = {
  /** 'smtp' delivers; 'log' writes each mail to the server log (no SMTP_URL configured). */
  kind: 'smtp' | 'log';
  send: (mail: Mail) => Promise<void>;
  /**
   * Checks that mail can go out now, sending nothing: SMTP connects, greets and signs in (the
   * monitor's check); 'log' has nothing to reach.
   */
  verify: () => Promise<void>;
  close: () => void;
};

export function createMailer({
  smtpUrl,
  from,
  logger,
}: {
  smtpUrl: string | undefined;
  from: string;
  logger: FastifyBaseLogger;
}): Mailer {
  if (!smtpUrl) {
    return {
      kind: 'log',
      // The one case a code may be logged: without SMTP the log is how the operator reads it.
      // Only that log: never the stored one an admin reads on the Logs page.
      send: async ({ to, subject, text }) => {
        logger.warn(
          LOCAL_ONLY,
          `SMTP_URL is not set, so this mail was not sent. To: ${to}\nSubject: ${subject}\n\n${text}`,
        );
      },
      verify: async () => {},
      close: () => {},
    };
  }
  const transport = nodemailer.createTransport(smtpUrl, { from });
  return {
    kind: 'smtp',
    send: async (mail) => {
      await transport.sendMail(mail);
    },
    verify: async () => {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}
