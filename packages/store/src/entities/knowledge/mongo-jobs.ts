// Knowledge jobs, one document per job: crawls (POST /api/knowledge/index-link: request,
// progress and the frontier/visited state a restarted server resumes from) and uploads.
import {
  emptyKnowledgeJobProgress,
  newKnowledgeJobRecord,
  type KnowledgeJob,
  type KnowledgeJobRepository,
} from './record';
import { clampLimit, nowIso } from '../../shared';
import type { KnowledgeJobDoc } from './mongo-schema';
import { jobFilter, jobsQuery, jobUpdate, unfinishedJobsQuery } from './mongo-jobs-queries';
import type { MongoModels } from '../../mongo/schemas';
import { fromJson, iso, isoOrNull, jsonValue, nowDate, orNull, toDate } from '../../mongo/util';

const toJob = (doc: KnowledgeJobDoc): KnowledgeJob => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: orNull(doc.userId),
  kind: doc.kind,
  upload: fromJson<KnowledgeJob['upload']>(doc.upload) ?? null,
  url: doc.url,
  strategy: doc.strategy,
  maxPages: doc.maxPages,
  maxDepth: doc.maxDepth,
  domain: doc.domain,
  status: doc.status,
  progress: fromJson<KnowledgeJob['progress'] | null>(doc.progress) ?? emptyKnowledgeJobProgress(),
  frontier: fromJson<KnowledgeJob['frontier'] | null>(doc.frontier) ?? [],
  visited: fromJson<string[] | null>(doc.visited) ?? [],
  errors: fromJson<KnowledgeJob['errors'] | null>(doc.pageErrors) ?? [],
  error: orNull(doc.error),
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
  startedAt: isoOrNull(doc.startedAt),
  finishedAt: isoOrNull(doc.finishedAt),
});

const dateOrNull = (value: string | null): Date | null => (value === null ? null : toDate(value));

export function mongoKnowledgeJobs({ knowledgeJobs }: MongoModels): KnowledgeJobRepository {
  return {
    async create(tenantId, input) {
      const { errors, ...job } = newKnowledgeJobRecord(tenantId, input, nowIso());
      const doc: KnowledgeJobDoc = {
        ...job,
        progress: jsonValue(job.progress),
        frontier: jsonValue(job.frontier),
        visited: jsonValue(job.visited),
        pageErrors: jsonValue(errors),
        upload: jsonValue(job.upload),
        createdAt: toDate(job.createdAt),
        updatedAt: toDate(job.updatedAt),
        startedAt: dateOrNull(job.startedAt),
        finishedAt: dateOrNull(job.finishedAt),
      };
      await knowledgeJobs.create(doc);
      return toJob(doc);
    },

    async get(tenantId, id) {
      const doc = await knowledgeJobs.findOne(jobFilter(tenantId, id)).lean().exec();
      return doc ? toJob(doc) : null;
    },

    async list(tenantId, options = {}) {
      if (options.status !== undefined && options.status.length === 0) return [];
      const limit = clampLimit(options.limit, 50);
      const query = jobsQuery(tenantId, options.status, limit, options.kind);
      const docs = await knowledgeJobs
        .find(query.filter)
        .sort(query.sort)
        .limit(limit)
        .lean()
        .exec();
      return docs.map(toJob);
    },

    async update(tenantId, id, patch, options = {}) {
      const { filter, update } = jobUpdate(tenantId, id, patch, nowDate());
      // A cancelled job still takes counts, never another status (see the port).
      const open = ['queued', 'running', ...(patch.status === undefined ? ['cancelled'] : [])];
      const guarded = options.unlessFinished ? { ...filter, status: { $in: open } } : filter;
      const doc = await knowledgeJobs
        .findOneAndUpdate(guarded, update, { returnDocument: 'after' })
        .lean()
        .exec();
      if (doc || !options.unlessFinished) return doc ? toJob(doc) : null;
      // Finished (or gone): as stored.
      const stored = await knowledgeJobs.findOne(jobFilter(tenantId, id)).lean().exec();
      return stored ? toJob(stored) : null;
    },

    async listUnfinished() {
      const query = unfinishedJobsQuery();
      const docs = await knowledgeJobs.find(query.filter).sort(query.sort).lean().exec();
      return docs.map(toJob);
    },
  };
}
