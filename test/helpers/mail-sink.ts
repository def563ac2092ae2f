import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { PDFParse } from 'pdf-parse';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test process (`smtp-server`), keeping every message it accepted,
 * parsed with `mailparser`. `refusing` makes it answer `421` to MAIL FROM (a server that is
 * down for a while, as far as the sender can tell) until it is set back.
 */
export interface MailSink {
  url: string;
  messages: ParsedMail[];
  /** Messages refused while `refusing`. */
  refused: number;
  refusing: boolean;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const sink = { messages: [] as ParsedMail[], refused: 0, refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!sink.refusing) return callback();
      sink.refused += 1;
      callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          sink.messages.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(sink, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The recipients of a parsed message, as lower-case addresses. */
export function recipients(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

/** The text of a PDF (`pdf-parse`). */
export async function pdfText(content: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(content) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
