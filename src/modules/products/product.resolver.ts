import { Authorized, Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toServiceInput } from '../../platform/graphql/input.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { registerNodeType } from '../../platform/relay/node.js';
import { importEligibilityList } from './eligibility-list.service.js';
import { productLoader } from './product.loaders.js';
import * as products from './product.service.js';
import {
  ArchiveProductPayload,
  CheckEligibilityBatchPayload,
  CheckEligibilityInput,
  CheckEligibilityPayload,
  CreateProductInput,
  CreateProductPayload,
  Eligibility,
  ImportEligibilityListPayload,
  ProductConnection,
  ProductNode,
  ProductsArgs,
  UpdateProductInput,
  UpdateProductPayload,
} from './product.types.js';

registerNodeType('Product', 'products', async (ctx, id) => ProductNode.from(await products.findProduct(ctx, id)));

const productId = (globalId: string, param = 'id') => fromGlobalId(globalId, 'Product', param);

/** A check's input in the service's (REST) shape: the product's global id becomes its numeric id. */
function eligibilityQuery(input: CheckEligibilityInput, param = 'productId') {
  const id = input.productId != null ? Number(productId(input.productId, param)) : undefined;
  return { ...toServiceInput(input, ['productId']), ...(id !== undefined && { product_id: id }) };
}

@Authorized('products')
@Resolver(() => ProductNode)
export class ProductResolver {
  @Query(() => ProductNode, {
    nullable: true,
    description: 'A product by global id (any status); null (with a not_found error) when this key cannot see it',
  })
  async product(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<ProductNode> {
    return ProductNode.from(await products.findProduct(ctx, productId(id)));
  }

  @Query(() => ProductConnection, { description: 'Products, most recent first, with the REST filters' })
  async products(@Args() args: ProductsArgs, @Ctx() { ctx }: GraphContext): Promise<ConnectionShape<ProductNode>> {
    const page = toPageRequest(args, Number);
    const { status, hsaFsaEligible, merchantProductId, createdAfter, createdBefore } = args;
    const filters = {
      status,
      hsa_fsa_eligible: hsaFsaEligible ?? undefined,
      merchant_product_id: merchantProductId ?? undefined,
      created_after: createdAfter ?? undefined,
      created_before: createdBefore ?? undefined,
    };
    return toConnection(await products.listProducts(ctx, filters, page, 'after'), args, (p) => ProductNode.from(p));
  }

  @Mutation(() => CreateProductPayload, {
    description: 'Create a product; eligibility is decided on create (emits product.created)',
  })
  async createProduct(
    @Arg('input', () => CreateProductInput) input: CreateProductInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CreateProductPayload> {
    return { product: ProductNode.from(await products.createProduct(ctx, toServiceInput(input))) };
  }

  @Mutation(() => UpdateProductPayload, { description: 'Update a product; omitted fields are kept' })
  async updateProduct(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateProductInput) input: UpdateProductInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<UpdateProductPayload> {
    return { product: ProductNode.from(await products.updateProduct(ctx, productId(id), toServiceInput(input))) };
  }

  @Mutation(() => ArchiveProductPayload, { description: 'Archive (soft-delete) a product' })
  async archiveProduct(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<ArchiveProductPayload> {
    return { product: ProductNode.from(await products.archiveProduct(ctx, productId(id))) };
  }

  @Mutation(() => ImportEligibilityListPayload, {
    description:
      'Apply an eligibility list (CSV: upc,hsa_fsa_eligibility[,iias_category][,description]) to the products with those barcodes',
  })
  async importEligibilityList(
    @Arg('csv', () => String) csv: string,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ImportEligibilityListPayload> {
    const r = await importEligibilityList(ctx, csv);
    return {
      rows: r.rows,
      matched: r.matched,
      productsChanged: r.products_changed,
      productsUnchanged: r.products_unchanged,
      unmatched: r.unmatched,
    };
  }

  @Authorized('products:read')
  @Mutation(() => CheckEligibilityPayload, {
    description: 'Check HSA/FSA eligibility of a name, a UPC/GTIN or a stored product; saves nothing',
  })
  async checkEligibility(
    @Arg('input', () => CheckEligibilityInput) input: CheckEligibilityInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<CheckEligibilityPayload> {
    const result = await products.checkEligibility(ctx, eligibilityQuery(input));
    const product =
      result.product_id !== null ? ProductNode.from(await products.getProduct(ctx, result.product_id)) : null;
    return { eligibility: Eligibility.from(result, new Date(result.checked_at)), product };
  }

  @Authorized('products:read')
  @Mutation(() => CheckEligibilityBatchPayload, {
    description:
      'Check up to 100 names, UPC/GTINs or stored products in one call, answered in the order given; saves nothing',
  })
  async checkEligibilityBatch(
    @Arg('items', () => [CheckEligibilityInput]) items: CheckEligibilityInput[],
    @Ctx() { ctx }: GraphContext,
  ): Promise<CheckEligibilityBatchPayload> {
    const results = await products.checkEligibilityBatch(ctx, {
      items: items.map((item, i) => eligibilityQuery(item, `items.${i}.productId`)),
    });
    const loader = productLoader(ctx);
    return {
      results: await Promise.all(
        results.map(async (result) => {
          const product = result.product_id !== null ? await loader.load(result.product_id) : null;
          return {
            eligibility: Eligibility.from(result, new Date(result.checked_at)),
            product: product && ProductNode.from(product),
          };
        }),
      ),
    };
  }
}
