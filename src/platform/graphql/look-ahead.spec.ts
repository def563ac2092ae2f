import 'reflect-metadata';
import { graphql, type GraphQLSchema } from 'graphql';
import {
  Args,
  ArgsType,
  Authorized,
  Ctx,
  Field,
  FieldResolver,
  ID,
  Int,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { Principal, ServiceContext } from '../context.js';
import type { GraphContext } from './context.js';
import { loader, thenMap } from './loaders.js';
import { lookAhead } from './look-ahead.js';
import { buildGraphSchema } from './schema.js';

// A page of boxes, each with lines that name a part: labels and parts come from per-request loaders.
@ObjectType()
class Part {
  @Field() name!: string;
}
@ObjectType()
class Line {
  @Field(() => Int) n!: number;
  @Field(() => Int, { nullable: true }) partId!: number | null;
}
@ObjectType()
class Box {
  @Field(() => ID) id!: string;
  @Field(() => [Line]) lines!: Line[];
}
@ObjectType()
class BoxPage {
  @Field(() => [Box]) nodes!: Box[];
}
@ArgsType()
class FirstArgs {
  @Field(() => Int, { nullable: true }) first?: number;
}

/** The batches the loaders ran, and whether each field resolver found its data read (`value`) or had to wait (`promise`). */
let batches: [string, unknown[]][] = [];
let answered: string[] = [];
let argsSeen: unknown[] = [];
const note = <T>(v: T | Promise<T>) => (answered.push(v instanceof Promise ? 'promise' : 'value'), v);

const labelsOf = lookAhead(
  Box,
  ['labels'],
  (ctx) =>
    loader<string, string[]>(ctx, 'labels', (ids) => {
      batches.push(['labels', [...ids]]);
      return Promise.resolve(ids.map((id) => [`${id}-a`, `${id}-b`, `${id}-c`]));
    }),
  (box) => box.id,
);
const partOf = lookAhead(
  Line,
  ['part'],
  (ctx) =>
    loader<number, Part>(ctx, 'part', (ids) => {
      batches.push(['part', [...ids]]);
      return Promise.resolve(ids.map((id) => ({ name: `part ${id}` })));
    }),
  (line) => line.partId,
);

const box = (id: string, parts: (number | null)[]): Box =>
  Object.assign(new Box(), { id, lines: parts.map((partId, n) => Object.assign(new Line(), { n, partId })) });

@Authorized('boxes')
@Resolver(() => Box)
class BoxResolver {
  @Query(() => BoxPage)
  async boxes(): Promise<BoxPage> {
    await Promise.resolve();
    return { nodes: [box('b1', [1, 2]), box('b2', [2, null]), box('b3', [3, 1])] };
  }
}

@Authorized('labels')
@Resolver(() => Box)
class BoxLabelsResolver {
  @FieldResolver(() => [String])
  labels(@Root() b: Box, @Args() args: FirstArgs, @Ctx() { ctx }: GraphContext): string[] | Promise<string[]> {
    argsSeen.push(args);
    return thenMap(note(labelsOf(ctx, b)), (labels) => labels.slice(0, args.first ?? 10));
  }
}

@Authorized('boxes')
@Resolver(() => Line)
class LineResolver {
  @FieldResolver(() => Part, { nullable: true })
  part(@Root() line: Line, @Ctx() { ctx }: GraphContext): Part | null | Promise<Part | null> {
    const part = partOf(ctx, line);
    return part === null ? null : note(part);
  }
}

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildGraphSchema([BoxResolver, BoxLabelsResolver, LineResolver]);
});

beforeEach(() => {
  batches = [];
  answered = [];
  argsSeen = [];
});

async function run(source: string, permissions?: string[]) {
  const principal = {
    merchantId: 'm',
    livemode: false,
    keyId: 'k',
    permissions: permissions && new Set(permissions),
  } as unknown as Principal;
  const ctx = { principal, loaders: new Map() } as unknown as ServiceContext;
  return JSON.parse(JSON.stringify(await graphql({ schema, source, contextValue: { ctx } }))) as {
    data: { boxes: { nodes: Record<string, unknown>[] } } | null;
    errors?: unknown[];
  };
}

test("a page reads its rows' loaded fields ahead, all rows at once, through plain fields and lists; the rows' resolvers then answer at once", async () => {
  const res = await run('{ boxes { nodes { id labels(first: 2) lines { n part { name } } } } }');
  expect(res.errors).toBeUndefined();
  expect(res.data!.boxes.nodes[0]).toEqual({
    id: 'b1',
    labels: ['b1-a', 'b1-b'],
    lines: [
      { n: 0, part: { name: 'part 1' } },
      { n: 1, part: { name: 'part 2' } },
    ],
  });
  expect(res.data!.boxes.nodes[1].lines).toEqual([
    { n: 0, part: { name: 'part 2' } },
    { n: 1, part: null },
  ]);
  expect(batches).toEqual(
    expect.arrayContaining([
      ['labels', ['b1', 'b2', 'b3']],
      ['part', [1, 2, 3]],
    ]),
  );
  expect(batches).toHaveLength(2);
  expect(answered).toEqual(Array(3 + 5).fill('value'));
  // The field resolver gets its arguments as its ArgsType, as type-graphql gives them.
  expect(argsSeen.every((a) => a instanceof FirstArgs && a.first === 2)).toBe(true);
});

test('fragments are followed; what is not selected is not read', async () => {
  const res = await run('{ boxes { ...page } } fragment page on BoxPage { nodes { ... on Box { labels } } }');
  expect(res.data!.boxes.nodes.map((b) => b.labels)).toEqual([
    ['b1-a', 'b1-b', 'b1-c'],
    ['b2-a', 'b2-b', 'b2-c'],
    ['b3-a', 'b3-b', 'b3-c'],
  ]);
  expect(batches).toEqual([['labels', ['b1', 'b2', 'b3']]]);
  expect(answered).toEqual(['value', 'value', 'value']);

  batches = [];
  await run('{ boxes { nodes { id lines { n } } } }');
  expect(batches).toEqual([]);
});

test('a field the caller may not see is neither read ahead nor answered: each row is refused at its path', async () => {
  const res = await run('{ boxes { nodes { id labels lines { part { name } } } } }', ['boxes:read']);
  expect(batches).toEqual([['part', [1, 2, 3]]]);
  expect(res.data).toBeNull(); // labels is non-null, and so are the nodes and the page
  expect(res.errors).toEqual([
    expect.objectContaining({
      message: 'This API key lacks the labels:read permission.',
      path: ['boxes', 'nodes', 0, 'labels'],
    }),
  ]);
});
