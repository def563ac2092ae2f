import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { openReceipt } from './receipt.service.js';

interface ReceiptRoute {
  Params: { file: string };
  Querystring: Record<string, unknown>;
}

/** `GET /receipts/{order_id}.pdf?expires&signature`: the signed, one-hour receipt link (no API key). */
const receipt: PublicRoute<ReceiptRoute> = {
  method: 'GET',
  url: '/receipts/:file',
  async handler(req, reply, orm) {
    const { file } = req.params;
    const { expires, signature } = req.query;
    const pdf = await openReceipt(orm, file.replace(/\.pdf$/, ''), expires, signature);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="receipt-${file.replace(/[^\w.-]/g, '')}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  },
};

/** The routes receipts are served on. */
export const receiptRoutes: PublicRoute[] = [receipt];
