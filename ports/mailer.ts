// The Mailer port: plain-text notification mails (geofence sync outcomes). Adapters: SMTP through
// nodemailer, and a stand-in that refuses when no mail server is configured.

export interface MailMessage {
  /** One or more recipient addresses. */
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  /** Whether mails can be sent at all (a configured server); false for the stand-in. */
  readonly configured: boolean;
  /** Resolves once the server accepted the message; rejects with a readable reason otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
