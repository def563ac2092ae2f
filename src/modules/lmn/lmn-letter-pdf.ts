import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.js';
import { renderPdf } from '../../platform/pdf.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { checkPdfLink } from '../orders/receipt.service.js';
import { LmnLetter } from './lmn.entity.js';

/** Checks a letter's signed link and renders its PDF; an expired, forged or unknown link is 404 `not_found`. */
export async function openLetterPdf(
  orm: MikroORM,
  letterId: string,
  expires: unknown,
  signature: unknown,
): Promise<Buffer> {
  const refused = () =>
    new DomainError(
      'not_found',
      'This letter link is invalid or has expired; request the letter again for a fresh link.',
    );
  const em = orm.em.fork();
  const letter = await em.findOne(LmnLetter, { id: letterId });
  if (!letter) throw refused();
  const merchant = await em.findOneOrFail(Merchant, letter.merchant.id);
  checkPdfLink(merchant.signingKey, letter.id, expires, signature, refused);
  return renderLetter(merchant, letter);
}

/** A letter's PDF as an email attaches it (the letter read from `em`). */
export async function letterPdf(em: EntityManager, letter: LmnLetter): Promise<Buffer> {
  return renderLetter(await em.findOneOrFail(Merchant, letter.merchant.id), letter);
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The letter: patient, condition, the items it covers, the clinician with credential and NPI, issue date and validity. */
function renderLetter(merchant: Merchant, letter: LmnLetter): Promise<Buffer> {
  return renderPdf(
    { margin: 60, title: `Letter of medical necessity ${letter.id}`, author: letter.clinician.name },
    (doc) => {
      const c = letter.customer;
      doc.fontSize(18).text('Letter of Medical Necessity').moveDown(0.3);
      doc
        .fontSize(9)
        .fillColor('#555')
        .text(`${letter.id} · ${merchant.name}${letter.livemode ? '' : ' · TEST MODE'}`)
        .fillColor('black')
        .moveDown();
      doc.fontSize(11).text(`Patient: ${c.first_name} ${c.last_name} <${c.email}>`);
      doc.text(`Condition: ${letter.condition}`).moveDown();
      doc.text(
        'I have reviewed this patient and certify that the following items are medically necessary to treat or prevent the condition above:',
      );
      for (const item of letter.items) doc.text(`  • ${item.name} (${item.product_id})`);
      doc.moveDown();
      doc.text(`Issued: ${day(letter.issuedAt)}`);
      doc.text(`Valid until: ${day(letter.expiresAt)} (12 months)`).moveDown();
      doc.text(`Clinician: ${letter.clinician.name}, ${letter.clinician.credential}`);
      doc.text(`NPI: ${letter.clinician.npi}`);
    },
  );
}
