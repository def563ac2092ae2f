import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';

/** Builds the executable schema from the resolver classes (input is validated by the services). */
export function buildGraphSchema(resolvers: NonEmptyArray<Function>): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, validate: false });
}

/** The SDL committed as schema.graphql: sorted, so the file only changes when the schema does. */
export function printGraphSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
