/**
 * @database (a database of its own: test/database-per-file.mjs)
 */
import { Entity, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { MikroORM, PostgreSqlDriver, type EntityManager } from '@mikro-orm/postgresql';
import { bulkInsert, bulkRows, bulkUpdate, runBulk } from './bulk.js';
import { runStatement } from './sql.js';

/**
 * bulk.ts against the suite's PostgreSQL, on tables of its own (entities declared here, so the
 * columns and types come from their metadata as they do for the domain's).
 */

@Entity({ tableName: 'bulk_spec_owners' })
class Owner {
  @PrimaryKey({ type: 'string' })
  id!: string;

  @Property({ type: 'integer' })
  clockOffset!: number;
}

@Entity({ tableName: 'bulk_spec_counters' })
class Counter {
  @PrimaryKey({ type: 'string' })
  ownerId!: string;

  @PrimaryKey({ type: 'boolean' })
  livemode!: boolean;

  @Property({ type: 'bigint' })
  lastNumber!: string;
}

@Entity({ tableName: 'bulk_spec_items' })
class Item {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Owner)
  owner!: Rel<Owner>;

  @Property({ type: 'string' })
  sku!: string;

  @Property({ type: 'integer' })
  quantity!: number;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  @Property({ type: 'string' })
  status!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  seenAt: Date | null = null;

  @Property({ type: 'integer' })
  version!: number;
}

let orm: MikroORM;
let em: EntityManager;

beforeAll(async () => {
  orm = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: process.env.DATABASE_URL,
    entities: [Owner, Counter, Item],
    pool: { min: 0, max: 2 },
    allowGlobalContext: true,
  });
  em = orm.em.fork();
  await runStatement(
    em,
    `drop table if exists bulk_spec_items, bulk_spec_counters, bulk_spec_owners;
     create table bulk_spec_owners (id text primary key, clock_offset int not null);
     create table bulk_spec_counters (owner_id text, livemode boolean, last_number bigint not null, primary key (owner_id, livemode));
     create table bulk_spec_items (id serial primary key, owner_id text not null references bulk_spec_owners, sku text not null, quantity int not null default 1,
       data jsonb not null default '{}', status text not null default 'new', seen_at timestamptz, version int not null default 1);
     create unique index bulk_spec_items_sku on bulk_spec_items (owner_id, sku) where status <> 'archived'`,
  );
  await runStatement(em, `insert into bulk_spec_owners values ('own_a', 0), ('own_b', 60000)`);
});

afterAll(async () => {
  await runStatement(em, 'drop table if exists bulk_spec_items, bulk_spec_counters, bulk_spec_owners');
  await orm.close();
});

beforeEach(() => runStatement(em, 'delete from bulk_spec_items; delete from bulk_spec_counters'));

const items = () =>
  runStatement<{
    id: number;
    owner_id: string;
    sku: string;
    quantity: number;
    data: object;
    status: string;
    seen_at: string | null;
    version: number;
  }>(em, 'select * from bulk_spec_items order by id');

describe('bulkInsert', () => {
  test('writes the rows in order, with constants sent once, computed columns and defaults, and answers `returning` by property name', async () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    const write = bulkInsert(
      em,
      Item,
      [
        { owner: 'own_a', sku: 'b', data: { n: 1 } },
        { owner: 'own_b', sku: 'a', data: { n: 2 } },
      ],
      {
        constants: { status: 'active', quantity: 3 },
        computed: {
          seenAt: {
            sql: `?::timestamptz + (select o.clock_offset from bulk_spec_owners o where o.id = v.owner_id) * interval '1 millisecond'`,
            params: [at],
          },
        },
        returning: ['id', 'owner', 'sku', 'seenAt'],
      },
    );
    // Constants and the computed column's parameter go once, before the rows; they are no columns of the row set.
    expect(write.params.slice(0, 3)).toEqual(['active', 3, at]);
    expect(write.sql).toMatch(/ as v\("owner_id" [^,]+, "sku" [^,]+, "data" jsonb\) returning /);
    const answered = await bulkRows<{ id: number; owner: string; sku: string; seenAt: string }>(em, write);
    expect(answered.map((r) => [r.owner, r.sku, new Date(r.seenAt).getTime()])).toEqual([
      ['own_a', 'b', at.getTime()],
      ['own_b', 'a', at.getTime() + 60000],
    ]);
    expect(answered[0].id).toBeLessThan(answered[1].id);
    expect(await items()).toEqual([
      expect.objectContaining({
        owner_id: 'own_a',
        sku: 'b',
        quantity: 3,
        data: { n: 1 },
        status: 'active',
        version: 1,
      }),
      expect.objectContaining({
        owner_id: 'own_b',
        sku: 'a',
        quantity: 3,
        data: { n: 2 },
        status: 'active',
        version: 1,
      }),
    ]);
  });

  test('a JSON constant is sent as its text and stored as the object', async () => {
    await runBulk(em, [
      bulkInsert(em, Item, [{ owner: 'own_a', sku: 'x' }], { constants: { data: { kept: [1, 2] } } }),
    ]);
    expect((await items())[0].data).toEqual({ kept: [1, 2] });
  });

  test('an upsert on a partial unique index: `update` takes the new values, `set` assigns by SQL, the rest stays', async () => {
    await runBulk(em, [
      bulkInsert(em, Item, [{ owner: 'own_a', sku: 's', quantity: 1, data: { v: 1 }, status: 'active' }]),
    ]);
    const upsert = () =>
      bulkRows<{ sku: string; quantity: number; version: number; inserted: boolean }>(
        em,
        bulkInsert(
          em,
          Item,
          [
            { owner: 'own_a', sku: 's', quantity: 5, data: { v: 2 } },
            { owner: 'own_a', sku: 't', quantity: 7, data: { v: 3 } },
          ],
          {
            onConflict: {
              target: ['owner', 'sku'],
              where: `status <> 'archived'`,
              update: ['quantity'],
              set: { version: (stored) => `${stored} + 1` },
            },
            returning: ['sku', 'quantity', 'version'],
            returningSql: '(t.xmax = 0) as inserted',
          },
        ),
      );
    expect(await upsert()).toEqual([
      { sku: 's', quantity: 5, version: 2, inserted: false },
      { sku: 't', quantity: 7, version: 1, inserted: true },
    ]);
    const [s, t] = await items();
    expect(s).toMatchObject({ quantity: 5, data: { v: 1 }, status: 'active', version: 2 });
    expect(t).toMatchObject({ quantity: 7, data: { v: 3 }, status: 'new' });
    await runStatement(em, `update bulk_spec_items set status = 'archived' where sku = 's'`);
    expect((await upsert()).map((r) => [r.sku, r.inserted])).toEqual([
      ['s', true], // the archived row is outside the index: a new one
      ['t', false],
    ]);
  });

  test('an onConflict with no update does nothing to a row whose key is taken', async () => {
    await runBulk(em, [bulkInsert(em, Item, [{ owner: 'own_a', sku: 's', quantity: 1 }])]);
    const answered = await bulkRows<{ sku: string }>(
      em,
      bulkInsert(
        em,
        Item,
        [
          { owner: 'own_a', sku: 's', quantity: 9 },
          { owner: 'own_b', sku: 's', quantity: 9 },
        ],
        { onConflict: {}, returning: ['owner'] },
      ),
    );
    expect(answered).toEqual([{ owner: 'own_b' }]);
    expect((await items()).map((r) => [r.owner_id, r.quantity])).toEqual([
      ['own_a', 1],
      ['own_b', 9],
    ]);
  });

  test('a counter upsert: the first row starts the book, later ones add to it (composite key, bigint)', async () => {
    const take = (rows: { ownerId: string; livemode: boolean; n: number }[]) =>
      bulkRows<{ ownerId: string; livemode: boolean; lastNumber: string }>(
        em,
        bulkInsert(
          em,
          Counter,
          rows.map((r) => ({ ownerId: r.ownerId, livemode: r.livemode, lastNumber: 1000 + r.n })),
          {
            onConflict: {
              target: ['ownerId', 'livemode'],
              set: { lastNumber: (stored, given) => `${stored} + (${given} - 1000)` },
            },
            returning: ['ownerId', 'livemode', 'lastNumber'],
          },
        ),
      );
    expect(await take([{ ownerId: 'own_a', livemode: false, n: 2 }])).toEqual([
      { ownerId: 'own_a', livemode: false, lastNumber: '1002' },
    ]);
    expect(
      await take([
        { ownerId: 'own_a', livemode: false, n: 3 },
        { ownerId: 'own_a', livemode: true, n: 1 },
      ]),
    ).toEqual([
      { ownerId: 'own_a', livemode: false, lastNumber: '1005' },
      { ownerId: 'own_a', livemode: true, lastNumber: '1001' },
    ]);
  });

  test('a property with no column is refused, naming both', () => {
    expect(() => bulkInsert(em, Item, [{ sku: 'a' }], { constants: { nope: 1 } as never })).toThrow(
      'Item has no column for property nope',
    );
  });

  test('no rows: nothing is sent', async () => {
    expect(await bulkRows(em, bulkInsert(em, Item, [], { returning: ['id'] }))).toEqual([]);
    await runBulk(em, [bulkInsert(em, Item, [])]);
    expect(await items()).toEqual([]);
  });
});

describe('bulkUpdate', () => {
  beforeEach(() =>
    runBulk(em, [
      bulkInsert(em, Item, [
        { owner: 'own_a', sku: 'a', quantity: 1, seenAt: new Date('2030-01-01T00:00:00Z') },
        { owner: 'own_a', sku: 'b', quantity: 1, seenAt: null },
        { owner: 'own_b', sku: 'a', quantity: 1, seenAt: null },
      ]),
    ]),
  );

  test('finds rows by a composite key, sets the given properties and assigns by function or SQL', async () => {
    const [a, b, c] = await items();
    await runBulk(em, [
      bulkUpdate(
        em,
        Item,
        [
          { id: a.id, version: 1, seenAt: new Date('2029-12-31T00:00:00Z'), quantity: 4 },
          { id: b.id, version: 1, seenAt: new Date('2030-02-01T00:00:00Z'), quantity: 5 },
          { id: c.id, version: 2, seenAt: new Date('2030-02-01T00:00:00Z'), quantity: 6 }, // another version: left alone
        ],
        ['seenAt', 'quantity'],
        {
          key: ['id', 'version'],
          assign: {
            seenAt: (stored, given) => `greatest(${stored}, ${given})`,
            status: `case when v.quantity > 4 then 'many' else t.status end`,
          },
        },
      ),
    ]);
    expect(
      (await items()).map((r) => [r.sku, r.quantity, r.seen_at && new Date(r.seen_at).toISOString(), r.status]),
    ).toEqual([
      ['a', 4, '2030-01-01T00:00:00.000Z', 'new'], // greatest keeps the later stored time
      ['b', 5, '2030-02-01T00:00:00.000Z', 'many'],
      ['a', 1, null, 'new'],
    ]);
  });

  test('runBulk runs several writes in one statement, each with its own parameters, and `autocommit` outside the caller transaction', async () => {
    const [a] = await items();
    await em
      .fork()
      .transactional(async (tx) => {
        await runBulk(
          tx,
          [
            bulkUpdate(tx, Item, [{ id: a.id, quantity: 8 }], ['quantity']),
            bulkInsert(tx, Item, [{ owner: 'own_b', sku: 'z' }], { constants: { status: 'autocommitted' } }),
          ],
          { autocommit: true },
        );
        await runBulk(tx, [
          bulkInsert(tx, Item, [{ owner: 'own_b', sku: 'rolled back' }], { constants: { quantity: 2 } }),
        ]);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    const after = await items();
    expect(after.find((r) => r.id === a.id)?.quantity).toBe(8);
    expect(after.map((r) => r.sku)).toContain('z');
    expect(after.find((r) => r.sku === 'z')?.status).toBe('autocommitted');
    expect(after.map((r) => r.sku)).not.toContain('rolled back');
  });
});
