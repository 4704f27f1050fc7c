// The query documents of the Mongo adapter, as plain data. Every filter, update, sort and
// aggregation pipeline the repositories send is built by a function in this folder, so the unit
// tests can evaluate the very same documents with mingo (a MongoDB query language engine) on
// documents of the stored shape: a typo in an operator or a field path fails CI, where no
// MongoDB server runs. The repositories only hand these to mongoose.
import type { PipelineStage } from 'mongoose';

export type Filter = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1 | { $meta: 'textScore' }>;
/** An update document (`$set`, `$inc`…) or an aggregation-pipeline update. */
export type UpdateDoc = Record<string, unknown> | Record<string, unknown>[];
/** Typed by mongoose's stage types, so a misspelt stage name fails the typecheck too. */
export type Pipeline = PipelineStage[];

export interface FindSpec {
  filter: Filter;
  sort?: SortSpec;
  /** Documents to return at most; absent = all. */
  limit?: number;
  projection?: Record<string, unknown>;
}

export interface UpdateSpec {
  filter: Filter;
  update: UpdateDoc;
  /** Insert when nothing matches (the filter's equalities become fields). */
  upsert?: boolean;
  /** findOneAndUpdate: which matching document is updated. */
  sort?: SortSpec;
}

/** Every document of one tenant (counts). */
export const tenantScope = (tenantId: string): Filter => ({ tenantId });
