// Uploaded files kept for the job that reads them, and the upload kind of knowledge job: bytes
// back exactly (bigger than one MongoDB part too), tenant scoping on every call, deletion, the
// sweep's cross-tenant list, and an upload job's details and outcome through create and update.
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, type KnowledgeUploadDetails } from '../../port';
import { expectIso, newTenant, tick, uniq, useStore, type MakeStore } from './harness';

/** Bytes no chunking could put back in order by accident: every position differs. */
const pattern = (size: number): Uint8Array => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + (i >> 8) * 7) & 0xff;
  return bytes;
};

const details = (overrides: Partial<KnowledgeUploadDetails> = {}): KnowledgeUploadDetails => ({
  fileName: 'guide.pdf',
  mimeType: 'application/pdf',
  sizeBytes: 1234,
  title: null,
  sourceUrl: null,
  result: null,
  failureCode: null,
  ...overrides,
});

export function uploadsContract(makeStore: MakeStore): void {
  describe('uploads', () => {
    const store = useStore(makeStore);

    it('keeps a file whole (2.5 MB: several MongoDB parts) and gives it back to its tenant only', async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      const bytes = pattern(2.5 * 1024 * 1024);
      const id = uniq('upload');
      const stored = await store().uploads.put(tenantId, {
        id,
        fileName: 'scan.pdf',
        mimeType: 'application/pdf',
        bytes,
      });
      expect(stored).toEqual({
        id,
        tenantId,
        fileName: 'scan.pdf',
        mimeType: 'application/pdf',
        sizeBytes: bytes.byteLength,
        createdAt: stored.createdAt,
      });
      expectIso(stored.createdAt);

      const read = await store().uploads.get(tenantId, id);
      expect(read).toMatchObject({ ...stored });
      expect(read?.bytes.byteLength).toBe(bytes.byteLength);
      expect(Buffer.from(read?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);

      // Another tenant neither reads nor deletes it.
      expect(await store().uploads.get(other, id)).toBeNull();
      expect(await store().uploads.delete(other, id)).toBe(false);
      expect(await store().uploads.get(tenantId, id)).not.toBeNull();

      expect(await store().uploads.delete(tenantId, id)).toBe(true);
      expect(await store().uploads.get(tenantId, id)).toBeNull();
      expect(await store().uploads.delete(tenantId, id)).toBe(false);
    });

    it('stores small and empty files, without a type, and refuses an id twice', async () => {
      const tenantId = await newTenant(store());
      const small = await store().uploads.put(tenantId, {
        fileName: 'notes.md',
        bytes: new TextEncoder().encode('# Notes'),
      });
      expect(small).toMatchObject({ mimeType: null, sizeBytes: 7 });
      const read = await store().uploads.get(tenantId, small.id);
      expect(new TextDecoder().decode(read?.bytes)).toBe('# Notes');

      const empty = await store().uploads.put(tenantId, {
        fileName: 'empty.txt',
        bytes: new Uint8Array(0),
      });
      expect((await store().uploads.get(tenantId, empty.id))?.bytes.byteLength).toBe(0);

      await expect(
        store().uploads.put(tenantId, { id: small.id, fileName: 'x', bytes: new Uint8Array(1) }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      // The refused write left the first file as it was.
      expect(new TextDecoder().decode((await store().uploads.get(tenantId, small.id))?.bytes)).toBe(
        '# Notes',
      );
    });

    it('lists every tenant’s uploads stored before a time, oldest first, without bytes', async () => {
      const a = await newTenant(store());
      const b = await newTenant(store());
      const first = await store().uploads.put(a, { fileName: 'a', bytes: pattern(10) });
      await tick();
      const second = await store().uploads.put(b, { fileName: 'b', bytes: pattern(20) });
      await tick();
      const cutoff = new Date().toISOString();
      await tick();
      const later = await store().uploads.put(a, { fileName: 'c', bytes: pattern(30) });

      const listed = await store().uploads.listCreatedBefore(cutoff, 1000);
      const ours = listed.filter((u) => [first.id, second.id, later.id].includes(u.id));
      expect(ours).toEqual([first, second]);
      expect(ours.every((u) => !('bytes' in u))).toBe(true);
    });

    it('keeps an upload job’s details and outcome, and lists jobs by kind', async () => {
      const tenantId = await newTenant(store());
      const crawl = await store().knowledgeJobs.create(tenantId, {
        url: 'https://docs.test/',
        strategy: 'single',
        maxPages: 1,
        maxDepth: 0,
        domain: 'docs.test',
      });
      await tick();
      const job = await store().knowledgeJobs.create(tenantId, {
        kind: 'upload',
        url: '',
        strategy: 'single',
        maxPages: 1,
        maxDepth: 0,
        domain: '',
        userId: 'user-1',
        upload: details(),
      });
      expect(job).toMatchObject({ kind: 'upload', upload: details(), status: 'queued' });
      expect(await store().knowledgeJobs.get(tenantId, job.id)).toEqual(job);
      expect(crawl.upload).toBeNull();

      const result = {
        documentId: 'doc-1',
        chunksAdded: 3,
        chunksSuperseded: 1,
        unchanged: false,
        embedded: true,
      };
      const done = await store().knowledgeJobs.update(
        tenantId,
        job.id,
        { status: 'completed', upload: details({ result }) },
        { unlessFinished: true },
      );
      expect(done?.upload).toEqual(details({ result }));
      // Finished: a late write from a worker that lost the job changes nothing.
      const late = await store().knowledgeJobs.update(
        tenantId,
        job.id,
        { status: 'failed', upload: details({ failureCode: 'BAD_REQUEST' }) },
        { unlessFinished: true },
      );
      expect(late).toEqual(done);

      const uploads = await store().knowledgeJobs.list(tenantId, { kind: 'upload' });
      expect(uploads.map((j) => j.id)).toEqual([job.id]);
      const crawls = await store().knowledgeJobs.list(tenantId, { kind: 'crawl' });
      expect(crawls.map((j) => j.id)).toEqual([crawl.id]);
      expect((await store().knowledgeJobs.list(tenantId)).map((j) => j.id)).toEqual([
        job.id,
        crawl.id,
      ]);
    });
  });
}
