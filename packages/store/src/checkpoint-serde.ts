// The checkpoint serializer both adapters give their LangGraph checkpointer: LangGraph's own
// JsonPlusSerializer, with a fast path for plain JSON that produces the same bytes and the
// same values. Why: JsonPlusSerializer revives every value of a loaded blob through an async
// recursive function (one promise per value, each also seen by the async-context hooks) and
// stringifies through a circular-reference pre-pass. Our graph state is plain JSON by design
// (packages/agent state.ts), and a step reads and writes dozens of channel blobs, so that
// generality was a measurable share of a step (bench/interact). Anything that is not plain
// JSON (undefined, Set, Map, Error, bytes, LangChain objects, cycles) takes the original path.
import { JsonPlusSerializer, type SerializerProtocol } from '@langchain/langgraph-checkpoint';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Every record JsonPlusSerializer writes for a non-JSON value, or revives on load, is an
 * object with an `lc` key; a text without that key revives to exactly what JSON.parse gives.
 */
const REVIVABLE_MARKER = '"lc"';

function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export class CheckpointSerializer implements SerializerProtocol {
  readonly #full = new JsonPlusSerializer();

  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    if (data instanceof Uint8Array) return this.#full.dumpsTyped(data);
    let plain = true;
    let text: string | undefined;
    try {
      text = JSON.stringify(data, (_key, value: unknown) => {
        if (
          value === undefined ||
          (typeof value === 'object' && value !== null && !isPlainContainer(value))
        )
          plain = false;
        return value;
      });
    } catch {
      // Cycles and BigInt: JsonPlusSerializer decides what they become.
      plain = false;
    }
    if (!plain || text === undefined) return this.#full.dumpsTyped(data);
    return ['json', encoder.encode(text)];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (type !== 'json') return this.#full.loadsTyped(type, data);
    const text = typeof data === 'string' ? data : decoder.decode(data);
    if (text.includes(REVIVABLE_MARKER)) return this.#full.loadsTyped(type, text);
    return JSON.parse(text) as unknown;
  }
}
