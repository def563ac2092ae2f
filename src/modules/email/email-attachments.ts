import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttachmentRef } from './email-message.entity.js';

/** A file a message carries, made when the message is sent. */
export interface RenderedAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** Renders attachment `id` of its kind (null: nothing to attach any more, say an order that no longer has a receipt). */
export type AttachmentRenderer = (em: EntityManager, id: string) => Promise<RenderedAttachment | null>;

const renderers = new Map<string, AttachmentRenderer>();

/**
 * Lets messages attach files of `kind` (`{kind, id}` in a draft's `attachments`): the outbox keeps
 * the reference and the file is rendered when the message is sent, so the row stays small and the
 * file is the current one. E.g. `registerEmailAttachment('lmn_letter', (em, id) => letterPdf(em, id))`.
 */
export function registerEmailAttachment(kind: string, render: AttachmentRenderer): void {
  renderers.set(kind, render);
}

/** The files of a message; an unknown kind is an error (the message is retried, then failed). */
export async function renderAttachments(em: EntityManager, refs: AttachmentRef[]): Promise<RenderedAttachment[]> {
  const files: RenderedAttachment[] = [];
  for (const ref of refs) {
    const render = renderers.get(ref.kind);
    if (!render)
      throw new Error(`no renderer registered for email attachments of kind ${ref.kind} (registerEmailAttachment)`);
    const file = await render(em, ref.id);
    if (file) files.push(file);
  }
  return files;
}
