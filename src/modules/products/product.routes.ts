import { z } from 'zod';
import { listEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { importEligibilityList } from './eligibility-list.service.js';
import {
  productResponse,
  eligibilityCheckAnswer,
  eligibilityListReportResponse,
  productListResponse,
} from './product.openapi.js';
import { toProductResource } from './product.resource.js';
import {
  checkEligibilityRequestSchema,
  createProductSchema,
  listProductsSchema,
  updateProductSchema,
} from './product.schemas.js';
import * as products from './product.service.js';

const idParams = z.object({ id: z.coerce.number().int().min(1).describe('Numeric product id') });
const tags = ['Products'];
const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

/** `/api/v2/products…`: each route parses nothing itself and calls one service method. */
export const productRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/products',
    operationId: 'createProduct',
    summary: 'Create a product (eligibility decided on create; emits product.created)',
    tags,
    body: createProductSchema,
    response: productResponse,
    status: 201,
    handler: async (ctx, req) => toProductResource(await products.createProduct(ctx, req.body)),
  },
  {
    method: 'GET',
    url: '/api/v2/products',
    operationId: 'listProducts',
    summary: 'List products, most recent first',
    tags,
    querystring: listProductsSchema,
    response: productListResponse,
    handler: async (ctx, req) => {
      const { filters, page } = products.parseListProductsQuery(req.query);
      return listEnvelope(await products.listProducts(ctx, filters, page), toProductResource);
    },
  },
  {
    method: 'POST',
    url: '/api/v2/products/check-eligibility',
    operationId: 'checkEligibility',
    access: 'read',
    summary:
      'Check HSA/FSA eligibility of a name, a UPC/GTIN or a stored product, or of up to 100 of them under `items` (a list answer); saves nothing',
    tags,
    body: checkEligibilityRequestSchema,
    response: eligibilityCheckAnswer,
    handler: (ctx, req) => products.checkEligibilityRequest(ctx, req.body),
  },
  {
    method: 'POST',
    url: '/api/v2/products/eligibility-list',
    operationId: 'importEligibilityList',
    summary:
      'Apply an eligibility list (text/csv: upc,hsa_fsa_eligibility[,iias_category][,description]) to the products with those barcodes',
    tags,
    consumes: ['text/csv'],
    body: z.string().describe('CSV text, UTF-8, header row first'),
    response: eligibilityListReportResponse,
    handler: (ctx, req) => importEligibilityList(ctx, req.body),
  },
  {
    method: 'GET',
    url: '/api/v2/products/:id',
    operationId: 'getProduct',
    summary: 'Retrieve a product',
    tags,
    params: idParams,
    response: productResponse,
    handler: async (ctx, req) => toProductResource(await products.findProduct(ctx, idOf(req))),
  },
  {
    method: 'PUT',
    url: '/api/v2/products/:id',
    operationId: 'updateProduct',
    summary: 'Update a product (omitted fields are kept; null clears)',
    tags,
    params: idParams,
    body: updateProductSchema,
    response: productResponse,
    handler: async (ctx, req) => toProductResource(await products.updateProduct(ctx, idOf(req), req.body)),
  },
  {
    method: 'DELETE',
    url: '/api/v2/products/:id',
    operationId: 'archiveProduct',
    summary: 'Archive a product (soft delete)',
    tags,
    params: idParams,
    response: productResponse,
    handler: async (ctx, req) => toProductResource(await products.archiveProduct(ctx, idOf(req))),
  },
];
