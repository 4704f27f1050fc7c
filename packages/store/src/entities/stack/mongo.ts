// Stacks and their rows. Rows carry the stack owner's userId, so a cell write is one
// findOneAndUpdate scoped to tenant, stack, document and user by its own filter.
import { assertFieldPath, mongoPath } from '../../field-paths';
import { newStackRecord, type Stack, type StackRepository, type StackRow } from './record';
import { clampLimit, nowIso } from '../../shared';
import type { StackDoc, StackRowDoc } from './mongo-schema';
import {
  cellUpdate,
  rowFilter,
  rowsQuery,
  rowUpsert,
  stacksQuery,
  stackSetUpdate,
} from './mongo-queries';
import { ownedFilter, usageUpdate } from '../document/mongo-queries';
import type { UpdateSpec } from '../../mongo/queries/spec';
import type { MongoModels } from '../../mongo/schemas';
import { fromJson, iso, jsonValue, nowDate, retryOnDuplicate, toDate } from '../../mongo/util';

const toStack = (doc: StackDoc): Stack => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: doc.userId,
  name: doc.name,
  documentIds: fromJson<string[]>(doc.documentIds),
  columns: fromJson<Stack['columns']>(doc.columns),
  status: doc.status,
  instructions: doc.instructions ?? null,
  costMicroUsd: doc.costMicroUsd,
  tokens: doc.tokens,
  error: doc.error ?? null,
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

const toRow = (doc: StackRowDoc): StackRow => ({
  tenantId: doc.tenantId,
  stackId: doc.stackId,
  documentId: doc.documentId,
  cells: fromJson<Record<string, unknown>>(doc.cells),
  confidences: fromJson<Record<string, number>>(doc.confidences),
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

export function mongoStacks({ stacks, stackRows }: MongoModels): StackRepository {
  async function updateStack(spec: UpdateSpec): Promise<Stack | null> {
    const doc = await stacks
      .findOneAndUpdate(spec.filter, spec.update, { returnDocument: 'after' })
      .lean()
      .exec();
    return doc ? toStack(doc) : null;
  }

  return {
    async create(tenantId, input) {
      const stack = newStackRecord(tenantId, input, nowIso());
      await stacks.create({
        ...stack,
        documentIds: jsonValue(stack.documentIds),
        columns: jsonValue(stack.columns),
        createdAt: toDate(stack.createdAt),
        updatedAt: toDate(stack.updatedAt),
      });
      return stack;
    },

    async get(tenantId, id, options = {}) {
      const doc = await stacks
        .findOne(ownedFilter(tenantId, id, options.userId))
        .lean()
        .exec();
      return doc ? toStack(doc) : null;
    },

    async list(tenantId, options = {}) {
      const q = stacksQuery(tenantId, options.userId, clampLimit(options.limit, 20));
      const docs = await stacks
        .find(q.filter)
        .sort(q.sort)
        .limit(q.limit ?? 20)
        .lean()
        .exec();
      return docs.map(toStack);
    },

    setColumns: (tenantId, id, input) =>
      updateStack(
        stackSetUpdate(
          ownedFilter(tenantId, id, input.userId),
          { columns: jsonValue(input.columns) },
          nowDate(),
        ),
      ),

    async putRow(tenantId, stackId, input) {
      // The stack must be the user's; its rows then carry that user.
      const stack = await stacks
        .findOne(ownedFilter(tenantId, stackId, input.userId))
        .lean()
        .exec();
      if (!stack) return null;
      const position =
        (await stackRows.countDocuments(rowsQuery(tenantId, stackId).filter).exec()) + 1;
      const spec = rowUpsert(
        rowFilter(tenantId, stackId, input.documentId, input.userId),
        input,
        position,
        nowDate(),
      );
      const doc = await retryOnDuplicate(() =>
        stackRows
          .findOneAndUpdate(spec.filter, spec.update, { upsert: true, returnDocument: 'after' })
          .lean()
          .exec(),
      );
      return doc ? toRow(doc) : null;
    },

    async setCell(tenantId, stackId, input) {
      assertFieldPath([input.column]);
      const spec = cellUpdate(
        rowFilter(tenantId, stackId, input.documentId, input.userId),
        mongoPath('cells', [input.column]),
        mongoPath('confidences', [input.column]),
        input.value,
        input.confidence,
        nowDate(),
      );
      const doc = await stackRows
        .findOneAndUpdate(spec.filter, spec.update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toRow(doc) : null;
    },

    async listRows(tenantId, stackId) {
      const q = rowsQuery(tenantId, stackId);
      const docs = await stackRows.find(q.filter).sort(q.sort).lean().exec();
      return docs.map(toRow);
    },

    async complete(tenantId, id, input) {
      const rows = await stackRows.countDocuments(rowsQuery(tenantId, id).filter).exec();
      if (rows === 0) return null;
      return updateStack(
        stackSetUpdate(
          ownedFilter(tenantId, id, input.userId),
          { status: 'completed', error: null },
          nowDate(),
        ),
      );
    },

    setStatus: (tenantId, id, input) =>
      updateStack(
        stackSetUpdate(
          ownedFilter(tenantId, id, input.userId),
          input.status === undefined
            ? { error: input.error }
            : { status: input.status, error: input.error },
          nowDate(),
        ),
      ),

    async addUsage(tenantId, id, usage) {
      const spec = usageUpdate(tenantId, id, usage);
      await stacks.updateOne(spec.filter, spec.update).exec();
    },
  };
}
