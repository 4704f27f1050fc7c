// What every mongoose schema shares. The schemas live with their entity
// (src/entities/*/mongo-schema.ts); the models binding them to a connection: schemas.ts.
//
// Mongo's own `_id` (an ObjectId) stays internal: it only breaks ties in insertion order and
// never reaches a record.
//
// Index rule: every lookup the port offers is a tenant-scoped index range, so tenantId leads
// each compound index (also the prefix a future tenant shard key needs for unique indexes).
// `createMongoStore` runs syncIndexes() for every model at start, which also drops indexes on
// these collections that are not declared: declare every index in the schema.
//
// No schema defaults and no `required` on strings: the repositories always write every field
// explicitly (so upserts cannot collide with setDefaultsOnInsert), and mongoose's required
// check would reject legitimately empty strings (a tenant-wide knowledge domain is "").
import mongoose from 'mongoose';

export const { Schema } = mongoose;
export const Mixed = Schema.Types.Mixed;

/** Options shared by every schema. */
export const SCHEMA_OPTIONS = {
  // Records carry their own string `id`; mongoose's virtual `id` (= _id as string) must not
  // shadow it.
  id: false,
  versionKey: false,
  // JSON-ish fields round-trip exactly as given, empty objects included.
  minimize: false,
  // Indexes are built once, awaited, by createMongoStore (syncIndexes), not in the background.
  autoIndex: false,
  autoCreate: false,
  // Unknown fields are dropped rather than stored: the shape is the port's, nothing else.
  strict: true,
} as const;

export const tenantOwned = { tenantId: { type: String, required: true }, id: String } as const;

/**
 * What the Mongo adapter stores for a record `R`: the record field for field, except that the
 * times in `DateKey` are BSON dates (TTL indexes and range queries work on them; a nullable
 * time stays nullable) and the JSON-ish fields in `JsonKey` are `unknown` until mapped back to
 * their record type.
 */
export type MongoDoc<R, DateKey extends keyof R = never, JsonKey extends keyof R = never> = {
  [K in keyof R]: K extends DateKey
    ? null extends R[K]
      ? Date | null
      : Date
    : K extends JsonKey
      ? unknown
      : R[K];
};
