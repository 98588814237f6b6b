import nodemailer from 'nodemailer'
import type Mail from 'nodemailer/lib/mailer/index.js'
import type { Disk } from '../../../core/storage/disk.ts'

/** Delivers one composed message; `key` names it (the outbox row), so a retry rewrites the same file. */
export interface MailTransport {
  readonly kind: 'smtp' | 'eml'
  deliver(key: string, message: Mail.Options): Promise<string>
  close(): void
}

/** SMTP_URL (smtp://user:pass@host:port, smtps://...) through nodemailer, with bounded waits. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as never)
  return {
    kind: 'smtp',
    async deliver(_key, message) {
      const info = await transporter.sendMail(message)
      return `smtp ${info.response ?? ''}`.trim()
    },
    close: () => transporter.close(),
  }
}

/**
 * Without SMTP_URL: each message as an .eml file on the mail disk (storage/mail), written
 * atomically, so a demo shows what would have been sent and /admin/outbox can list it.
 */
export function emlTransport(disk: Disk): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    kind: 'eml',
    async deliver(key, message) {
      const info = await composer.sendMail(message)
      await disk.put(emlKey(key), info.message as Buffer)
      return `file ${emlKey(key)}`
    },
    close: () => composer.close(),
  }
}

export const emlKey = (outboxId: string) => `${outboxId}.eml`
