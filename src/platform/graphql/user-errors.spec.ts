import 'reflect-metadata';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { Arg, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../context.js';
import { DomainError } from '../errors.js';
import { buildGraphSchema } from './schema.js';
import { hadUserErrors, mutationPayload, withUserErrors } from './user-errors.js';

// A domain of its own, declared as the modules declare theirs.
@ObjectType()
class Thing {
  @Field(() => ID) id!: string;
}
@InputType()
class LineInput {
  @Field(() => Int, { nullable: true }) unitPrice?: number;
}
@InputType()
class ThingInput {
  @Field(() => ID, { nullable: true }) thingId?: string;
  @Field(() => [LineInput], { nullable: true }) lineItems?: LineInput[];
  @Field(() => String, { nullable: true }) name?: string;
}
@ObjectType()
class ThingPayload extends mutationPayload('Thing', ['validation_error', 'not_found']) {
  @Field(() => Thing, { nullable: true }) thing!: Thing | null;
}

/** What every mutation of the test schema throws (or, when null, answers a thing). */
let thrown: Error | null = null;
const answer = (): ThingPayload => {
  if (thrown) throw thrown;
  return { thing: { id: 't1' } };
};

@Resolver()
class ThingResolver {
  @Query(() => Boolean) ok(): boolean {
    return true;
  }
  @Mutation(() => ThingPayload) make(@Arg('input', () => ThingInput) _input: ThingInput): ThingPayload {
    return answer();
  }
  @Mutation(() => ThingPayload) act(
    @Arg('thingId', () => ID) _thingId: string,
    @Arg('reason', () => String, { nullable: true }) _reason?: string,
  ): ThingPayload {
    return answer();
  }
  @Mutation(() => ThingPayload) pick(
    @Arg('ids', () => [ID]) _ids: string[],
    @Arg('other', () => ID, { nullable: true }) _other?: string,
  ): ThingPayload {
    return answer();
  }
}

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildGraphSchema([ThingResolver]);
});

const warnings: unknown[] = [];
const ctx = { log: { warn: (o: unknown) => warnings.push(o) } } as unknown as ServiceContext;

async function run(error: Error | null, mutation = 'make(input: { name: "x" })', context = { ctx }) {
  thrown = error;
  const result = await graphql({
    schema,
    source: `mutation { ${mutation} { thing { id } userErrors { field message code } } }`,
    contextValue: context,
  });
  return JSON.parse(JSON.stringify(result)) as {
    data?: Record<string, unknown> | null;
    errors?: { message: string }[];
  };
}

test('a success answers an empty userErrors list', async () => {
  expect(await run(null)).toEqual({ data: { make: { thing: { id: 't1' }, userErrors: [] } } });
});

test('an input mistake answers userErrors, one per bad field of details, with paths in GraphQL names under the argument that holds them', async () => {
  const error = new DomainError('validation_error', 'Invalid request: …', {
    param: 'line_items.0.unit_price',
    details: [
      { field: 'line_items.0.unit_price', message: 'must be positive' },
      { field: 'name', message: 'is required' },
      { field: '', message: 'the body is empty' },
    ],
  });
  const context = { ctx: { ...ctx } };
  expect(await run(error, undefined, context)).toEqual({
    data: {
      make: {
        thing: null,
        userErrors: [
          {
            field: ['input', 'lineItems', '0', 'unitPrice'],
            message: 'lineItems.0.unitPrice must be positive',
            code: 'VALIDATION_ERROR',
          },
          { field: ['input', 'name'], message: 'name is required', code: 'VALIDATION_ERROR' },
          { field: null, message: 'the body is empty', code: 'VALIDATION_ERROR' },
        ],
      },
    },
  });
  expect(hadUserErrors(context.ctx)).toBe(true);
  expect(hadUserErrors(ctx)).toBe(false);
});

test('without details, one userError names its param: an argument, an input field, the one ID, the only argument, or nothing', async () => {
  const notFound = (param: string) => DomainError.notFound('thing', 'x', param);
  expect((await run(notFound('thing_id'))).data!.make).toEqual({
    thing: null,
    userErrors: [{ field: ['input', 'thingId'], message: "No such thing: 'x'", code: 'NOT_FOUND' }],
  });
  expect((await run(notFound('id'))).data!.make).toMatchObject({ userErrors: [{ field: ['input', 'thingId'] }] });
  expect((await run(notFound('id'), 'act(thingId: "t")')).data!.act).toMatchObject({
    userErrors: [{ field: ['thingId'] }],
  });
  expect((await run(notFound('reason'), 'act(thingId: "t")')).data!.act).toMatchObject({
    userErrors: [{ field: ['reason'] }],
  });
  expect((await run(notFound('body'))).data!.make).toMatchObject({ userErrors: [{ field: ['input'] }] });
  expect((await run(notFound('id'), 'pick(ids: ["a"], other: "b")')).data!.pick).toMatchObject({
    userErrors: [{ field: null }],
  });
});

test('authentication, permission, limits and failures stay top-level errors, and so does a code the payload enum lacks', async () => {
  for (const error of [
    new DomainError('unauthorized', 'Missing or invalid API key.'),
    DomainError.testModeOnly(),
    new DomainError('rate_limit_exceeded', 'Too many'),
    new DomainError('internal_error', 'boom'),
    new Error('not a DomainError'),
  ]) {
    const result = await run(error);
    expect([error.message, result.data, result.errors?.[0].message]).toEqual([error.message, null, error.message]);
  }
  warnings.length = 0;
  const lacking = await run(new DomainError('invalid_state', 'Archived'));
  expect(lacking.errors?.[0].message).toBe('Archived');
  expect(warnings).toEqual([expect.objectContaining({ code: 'invalid_state', mutation: 'make' })]);
});

test('a mutation whose payload has no userErrors fails the schema build', () => {
  const schema = buildSchema('type Query { ok: Boolean } type Thing { id: ID } type Mutation { make: Thing! }');
  expect(() => withUserErrors(schema)).toThrow('Mutation.make must answer a payload with userErrors');
});
