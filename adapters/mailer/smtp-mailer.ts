// Mails through an SMTP server (nodemailer). One pooled transport per gateway: the sync sends a few
// mails a night, but a burst of saved settings should not open a connection each.
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../../ports/mailer';

export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465). Otherwise STARTTLS is used when the server offers it. */
  secure: boolean;
  /** Refuse to send unless the connection is upgraded with STARTTLS. */
  requireTls: boolean;
  user?: string;
  pass?: string;
  /** The From header, e.g. `Waymark <noreply@example.com>`. */
  from: string;
  /** Per-step timeouts (connect, greeting, socket idle), ms. */
  timeoutMs: number;
}

export class SmtpMailer implements Mailer {
  readonly configured = true;
  private readonly transport: Transporter;

  constructor(private readonly settings: SmtpSettings) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: settings.requireTls,
      auth: settings.user !== undefined ? { user: settings.user, pass: settings.pass ?? '' } : undefined,
      pool: true,
      maxConnections: 2,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    });
  }

  async send(message: MailMessage): Promise<void> {
    if (message.to.length === 0) throw new Error('no recipient');
    try {
      await this.transport.sendMail({ from: this.settings.from, to: message.to, subject: message.subject, text: message.text });
    } catch (err) {
      throw new Error(`SMTP ${this.settings.host}:${this.settings.port}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** The mailer when no SMTP server is configured: every send fails with `reason`, so runs record why. */
export class UnconfiguredMailer implements Mailer {
  readonly configured = false;

  constructor(private readonly reason: string) {}

  async send(): Promise<void> {
    throw new Error(this.reason);
  }

  async close(): Promise<void> {}
}
