import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type ClassType, type NonEmptyArray, type PubSub } from 'type-graphql';
import { EventPubSub } from '../pubsub/event-pubsub.js';

/** Builds the executable schema from the resolver classes (input is validated by the services); `pubSub` feeds the subscriptions. */
export function buildGraphSchema(resolvers: NonEmptyArray<ClassType>, pubSub: PubSub = new EventPubSub()): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, validate: false, pubSub });
}

/** The SDL committed as schema.graphql: sorted, so the file only changes when the schema does. */
export function printGraphSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
