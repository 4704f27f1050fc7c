// The embedded event bus's relay. Each append is one INSERT: SQLite numbers it (seq is an
// AUTOINCREMENT rowid) under the write lock, so appends from every connection on the file get
// increasing seqs and become visible in that order. A poller that passes the last seq it saw
// to listAfter can therefore never skip an event committed before the ones it has read.
import type { Row } from '@libsql/client';
import type { LiveEventRecord, LiveEventRepository } from './record';
import { clampLimit, nowIso } from '../../shared';
import type { SqlClient } from '../../libsql/native-client';
import { firstRow, iso, json, num, placeholders, str, toJson } from '../../libsql/sql';

const toEvent = (row: Row): LiveEventRecord => ({
  seq: num(row, 'seq'),
  channel: str(row, 'channel'),
  origin: str(row, 'origin'),
  data: json<unknown>(row, 'data'),
  createdAt: str(row, 'created_at'),
});

export function libsqlLiveEvents(client: SqlClient): LiveEventRepository {
  return {
    async append(input, now) {
      const result = await client.execute({
        sql: `INSERT INTO live_events (channel, origin, data, created_at) VALUES (?, ?, ?, ?)
              RETURNING *`,
        args: [
          input.channel,
          input.origin,
          toJson(input.data),
          now === undefined ? nowIso() : iso(now),
        ],
      });
      return toEvent(firstRow(result.rows));
    },

    async listAfter(afterSeq, options) {
      const { channels } = options;
      if (channels.length === 0) return [];
      const result = await client.execute({
        sql: `SELECT * FROM live_events WHERE seq > ? AND channel IN (${placeholders(channels.length)})
              ORDER BY seq LIMIT ?`,
        args: [afterSeq, ...channels, clampLimit(options.limit, 500)],
      });
      return result.rows.map(toEvent);
    },

    async lastSeq() {
      const result = await client.execute('SELECT COALESCE(MAX(seq), 0) AS seq FROM live_events');
      return num(firstRow(result.rows), 'seq');
    },

    async prune(before) {
      const result = await client.execute({
        sql: 'DELETE FROM live_events WHERE created_at < ?',
        args: [iso(before)],
      });
      return result.rowsAffected;
    },
  };
}
