// Stacks: several documents extracted into one table, one row per (stack, document).
import type { DocumentExtractionStatus, StackColumn } from '@tandem/contracts';
import { newId } from '../../shared';

/** Several documents extracted into one table (the spec's "stacks"). */
export interface Stack {
  id: string;
  tenantId: string;
  userId: string;
  name: string;
  /** The documents the stack's agent may read, in table order. */
  documentIds: string[];
  columns: StackColumn[];
  status: DocumentExtractionStatus;
  instructions: string | null;
  costMicroUsd: number;
  tokens: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A stack's row for one document: a value and a confidence (0..1) per column. */
export interface StackRow {
  tenantId: string;
  stackId: string;
  documentId: string;
  cells: Record<string, unknown>;
  confidences: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}

export type NewStack = Pick<Stack, 'userId' | 'name' | 'documentIds'> &
  Partial<Pick<Stack, 'id' | 'columns' | 'instructions'>>;

/** Stacks and their rows; like extractions, every write names the user. */
export interface StackRepository {
  create(tenantId: string, input: NewStack): Promise<Stack>;
  get(tenantId: string, id: string, options?: { userId?: string }): Promise<Stack | null>;
  /** Newest first; default 20. */
  list(tenantId: string, options?: { userId?: string; limit?: number }): Promise<Stack[]>;
  setColumns(
    tenantId: string,
    id: string,
    input: { userId: string; columns: StackColumn[] },
  ): Promise<Stack | null>;
  /** Writes a document's whole row (inserted, or replaced). Null when the stack is not the user's. */
  putRow(
    tenantId: string,
    stackId: string,
    input: {
      userId: string;
      documentId: string;
      cells: Record<string, unknown>;
      confidences: Record<string, number>;
    },
  ): Promise<StackRow | null>;
  /** Sets one cell and its confidence in one atomic update; null when the row does not exist. */
  setCell(
    tenantId: string,
    stackId: string,
    input: {
      userId: string;
      documentId: string;
      column: string;
      value: unknown;
      confidence: number;
    },
  ): Promise<StackRow | null>;
  /** Rows in the order they were first written. */
  listRows(tenantId: string, stackId: string): Promise<StackRow[]>;
  /** Marks it completed unless it has no rows (then null, unchanged); clears `error`. */
  complete(tenantId: string, id: string, input: { userId: string }): Promise<Stack | null>;
  setStatus(
    tenantId: string,
    id: string,
    input: { userId: string; status?: DocumentExtractionStatus; error: string | null },
  ): Promise<Stack | null>;
  addUsage(
    tenantId: string,
    id: string,
    usage: { costMicroUsd: number; tokens: number },
  ): Promise<void>;
}

export function newStackRecord(tenantId: string, input: NewStack, now: string): Stack {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    name: input.name,
    documentIds: [...input.documentIds],
    columns: input.columns ?? [],
    status: 'in_progress',
    instructions: input.instructions ?? null,
    costMicroUsd: 0,
    tokens: 0,
    error: null,
    createdAt: now,
    updatedAt: now,
  };
}
