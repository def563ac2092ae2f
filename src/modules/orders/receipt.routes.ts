import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { openReceipt } from './receipt.service.js';

/** `GET /receipts/{order_id}.pdf?expires&signature`: the signed, one-hour receipt link (no API key). */
export function registerReceiptRoutes(http: FastifyInstance, orm: MikroORM): void {
  http.get('/receipts/:file', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const { file } = req.params as { file: string };
    const { expires, signature } = req.query as Record<string, unknown>;
    const pdf = await openReceipt(orm, file.replace(/\.pdf$/, ''), expires, signature);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="receipt-${file.replace(/[^\w.-]/g, '')}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  });
}
