// Stacks and their rows. Rows carry the stack owner's userId, so a cell write is one
// findOneAndUpdate scoped to tenant, stack, document and user by its own filter.
import { assertFieldPath, mongoPath } from '../field-paths';
import type { Stack, StackRepository, StackRow } from '../port';
import { newStackRecord } from '../record-defaults';
import { clampLimit, nowIso } from '../shared';
import type { StackDoc, StackRowDoc } from './documents';
import type { MongoModels } from './schemas';
import { fromJson, iso, jsonValue, nowDate, retryOnDuplicate, toDate } from './util';

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
  async function updateStack(
    filter: Record<string, unknown>,
    set: Record<string, unknown>,
  ): Promise<Stack | null> {
    const doc = await stacks
      .findOneAndUpdate(
        filter,
        { $set: { ...set, updatedAt: nowDate() } },
        { returnDocument: 'after' },
      )
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
      const filter: Record<string, unknown> = { tenantId, id };
      if (options.userId !== undefined) filter.userId = options.userId;
      const doc = await stacks.findOne(filter).lean().exec();
      return doc ? toStack(doc) : null;
    },

    async list(tenantId, options = {}) {
      const filter: Record<string, unknown> = { tenantId };
      if (options.userId !== undefined) filter.userId = options.userId;
      const docs = await stacks
        .find(filter)
        .sort({ createdAt: -1, id: -1 })
        .limit(clampLimit(options.limit, 20))
        .lean()
        .exec();
      return docs.map(toStack);
    },

    setColumns: (tenantId, id, input) =>
      updateStack({ tenantId, id, userId: input.userId }, { columns: jsonValue(input.columns) }),

    async putRow(tenantId, stackId, input) {
      const stack = await stacks
        .findOne({ tenantId, id: stackId, userId: input.userId })
        .lean()
        .exec();
      if (!stack) return null;
      const now = nowDate();
      const existing = await stackRows.countDocuments({ tenantId, stackId }).exec();
      const doc = await retryOnDuplicate(() =>
        stackRows
          .findOneAndUpdate(
            { tenantId, stackId, documentId: input.documentId, userId: input.userId },
            {
              $set: {
                cells: jsonValue(input.cells),
                confidences: jsonValue(input.confidences),
                updatedAt: now,
              },
              // A row keeps the place it was first written at.
              $setOnInsert: { position: existing + 1, createdAt: now },
            },
            { upsert: true, returnDocument: 'after' },
          )
          .lean()
          .exec(),
      );
      return doc ? toRow(doc) : null;
    },

    async setCell(tenantId, stackId, input) {
      assertFieldPath([input.column]);
      const doc = await stackRows
        .findOneAndUpdate(
          { tenantId, stackId, documentId: input.documentId, userId: input.userId },
          {
            $set: {
              [mongoPath('cells', [input.column])]: jsonValue(input.value),
              [mongoPath('confidences', [input.column])]: input.confidence,
              updatedAt: nowDate(),
            },
          },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      return doc ? toRow(doc) : null;
    },

    async listRows(tenantId, stackId) {
      const docs = await stackRows
        .find({ tenantId, stackId })
        .sort({ position: 1, documentId: 1 })
        .lean()
        .exec();
      return docs.map(toRow);
    },

    async complete(tenantId, id, input) {
      const rows = await stackRows.countDocuments({ tenantId, stackId: id }).exec();
      if (rows === 0) return null;
      return updateStack(
        { tenantId, id, userId: input.userId },
        { status: 'completed', error: null },
      );
    },

    setStatus: (tenantId, id, input) =>
      updateStack(
        { tenantId, id, userId: input.userId },
        input.status === undefined
          ? { error: input.error }
          : { status: input.status, error: input.error },
      ),

    async addUsage(tenantId, id, usage) {
      await stacks
        .updateOne(
          { tenantId, id },
          {
            $inc: {
              costMicroUsd: Math.round(usage.costMicroUsd),
              tokens: Math.round(usage.tokens),
            },
          },
        )
        .exec();
    },
  };
}
