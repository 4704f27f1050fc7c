import { describe, expect, it } from 'vitest';
import { ACTION_NAMES } from './action-grammar';
import { renderApiDoc, toDocJsonSchema } from './api-doc';
import { endpoints } from './endpoints';
import { ErrorCode } from './errors';
import { InteractRequest, NextActionResponse } from './interact';

const doc = renderApiDoc();

describe('renderApiDoc', () => {
  it('is deterministic', () => {
    expect(renderApiDoc()).toBe(doc);
  });

  it('documents every endpoint with method, path and auth', () => {
    for (const [name, e] of Object.entries(endpoints)) {
      expect(doc).toContain(`### ${name} — \`${e.method} ${e.path}\``);
      expect(doc).toContain(`| \`${name}\` | ${e.method} | \`${e.path}\` | \`${e.auth}\` |`);
    }
  });

  it('heads each answer with the statuses its route sends (201, 202), not always 200', () => {
    const doc = renderApiDoc();
    const section = (title: string) =>
      doc.slice(doc.indexOf(title), doc.indexOf('#### Errors', doc.indexOf(title)));
    expect(section('— `POST /api/documents`')).toContain('#### Response (201 or 202)');
    expect(section('— `POST /api/knowledge/index-link`')).toContain('#### Response (202)');
    expect(section('— `POST /api/knowledge/ingest`')).toContain(
      '#### Response (201 or 200 or 202)',
    );
  });

  it('lists every error code with its status and every action of the grammar', () => {
    for (const c of ErrorCode.options)
      expect(doc).toMatch(new RegExp(`\\| \`${c}\` \\| \\d{3} \\|`));
    for (const name of ACTION_NAMES) expect(doc).toContain(`| \`${name}\` | \`${name}(`);
  });

  it('embeds only valid JSON in its json blocks', () => {
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1] ?? '');
    // The envelope, then per endpoint its response plus params, query and body when it has them.
    const perEndpoint = Object.values(endpoints).map(
      (e) => 1 + ['params', 'query', 'request'].filter((key) => key in e).length,
    );
    expect(blocks.length).toBe(1 + perEndpoint.reduce((a, b) => a + b, 0));
    for (const block of blocks) expect(() => JSON.parse(block) as unknown).not.toThrow();
  });
});

describe('toDocJsonSchema', () => {
  it('shows the request as a client may send it: only url required, dom optional', () => {
    const schema = toDocJsonSchema(InteractRequest, 'input') as {
      required?: string[];
      properties: Record<string, { description?: string }>;
    };
    expect(schema.required).toStrictEqual(['url']);
    expect(schema.properties['dom']?.description).toMatch(
      /^Full DOM is never required in semantic_v3 mode/,
    );
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining([
        'interactiveTree',
        'taskId',
        'chainPartialState',
        'snapshot',
        'idempotencyKey',
      ]),
    );
  });

  it('drops zod regexes where a format says it all', () => {
    const schema = toDocJsonSchema(NextActionResponse, 'output') as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties['taskId']).toStrictEqual({
      type: 'string',
      format: 'uuid',
    });
  });
});
