// The run as the loop last wrote it. The loop writes only through `save`, a compare-and-set:
// when Stop (or a new run) was stored meanwhile, the write is refused and the loop ends there.
import { compareAndSetRun, type RunState } from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';

/** The stored run is newer than the loop's (stopped, or replaced): `run` is what is stored. */
export class RunInterrupted extends Error {
  override readonly name = 'RunInterrupted';
  constructor(readonly run: RunState) {
    super(`The run is ${run.status} now.`);
  }
}

export class RunRecord {
  #current: RunState;
  constructor(
    private readonly storage: KeyValueStore,
    run: RunState,
  ) {
    this.#current = run;
  }

  get current(): RunState {
    return this.#current;
  }

  /** Writes `patch` over the run; throws RunInterrupted when the stored run refused it. */
  async save(patch: Partial<RunState>): Promise<RunState> {
    const write = await compareAndSetRun(this.storage, this.#current, patch);
    this.#current = write.run;
    if (!write.written) throw new RunInterrupted(write.run);
    return write.run;
  }
}
