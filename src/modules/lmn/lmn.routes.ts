import { z } from 'zod';
import type { PublicRoute } from '../../platform/rest/public-routes.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { openLetterPdf } from './lmn-letter-pdf.js';
import { letterListResponse, letterResponse, reviewResponse } from './lmn.openapi.js';
import { approveReviewSchema, declineReviewSchema } from './lmn.schemas.js';
import * as lmn from './lmn.service.js';

const idParams = z.object({ id: z.string() });
const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

/** Letters (customers' resource), reviews (orders'), and the test helpers that decide a review. */
export const lmnRoutes: RouteSpec[] = [
  {
    method: 'GET',
    url: '/api/v2/customers/:id/letters',
    operationId: 'listCustomerLetters',
    resource: 'customers',
    summary: "A customer's letters of medical necessity (by the customer's email), most recent first",
    tags: ['Customers'],
    params: idParams,
    response: letterListResponse,
    handler: (ctx, req) => lmn.customerLetters(ctx, idOf(req)),
  },
  {
    method: 'GET',
    url: '/api/v2/letters/:id',
    operationId: 'getLetter',
    resource: 'customers',
    summary: 'Retrieve a letter of medical necessity (with a fresh signed pdf_url)',
    tags: ['Letters of medical necessity'],
    params: idParams,
    response: letterResponse,
    handler: (ctx, req) => lmn.letter(ctx, idOf(req)),
  },
  {
    method: 'GET',
    url: '/api/v2/lmn-reviews/:id',
    operationId: 'getLmnReview',
    resource: 'orders',
    summary: 'Retrieve an LMN review',
    tags: ['Letters of medical necessity'],
    params: idParams,
    response: reviewResponse,
    handler: (ctx, req) => lmn.review(ctx, idOf(req)),
  },
  {
    method: 'POST',
    url: '/api/v2/test-helpers/lmn-reviews/:id/approve',
    operationId: 'testApproveLmnReview',
    resource: 'orders',
    summary:
      'Approve a pending LMN review as a clinician would (test mode only): captures the HSA/FSA hold, issues the letter, completes the order',
    tags: ['Test helpers'],
    params: idParams,
    body: approveReviewSchema,
    response: reviewResponse,
    ownTransactions: true,
    handler: (ctx, req) => lmn.testApprove(ctx, idOf(req), req.body),
  },
  {
    method: 'POST',
    url: '/api/v2/test-helpers/lmn-reviews/:id/decline',
    operationId: 'testDeclineLmnReview',
    resource: 'orders',
    summary:
      'Decline a pending LMN review (test mode only): releases the HSA/FSA hold, refunds the regular part, fails the order',
    tags: ['Test helpers'],
    params: idParams,
    body: declineReviewSchema,
    response: reviewResponse,
    ownTransactions: true,
    handler: (ctx, req) => lmn.testDecline(ctx, idOf(req), req.body),
  },
];

interface LetterPdfRoute {
  Params: { file: string };
  Querystring: Record<string, unknown>;
}

/** `GET /lmn-letters/{lmn_id}.pdf?expires&signature`: a letter's signed, one-hour PDF link (no API key). */
const letterPdf: PublicRoute<LetterPdfRoute> = {
  method: 'GET',
  url: '/lmn-letters/:file',
  async handler(req, reply, orm) {
    const { file } = req.params;
    const pdf = await openLetterPdf(orm, file.replace(/\.pdf$/, ''), req.query.expires, req.query.signature);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="letter-${file.replace(/[^\w.-]/g, '')}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  },
};

export const lmnLetterPdfRoutes: PublicRoute[] = [letterPdf];
