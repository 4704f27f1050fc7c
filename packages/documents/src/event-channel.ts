// Events from a run that goes on by itself to whoever is listening. The run is not paced by its
// reader: a client that disconnects mid-run stops reading, and the run still finishes and
// stores its result (the page can read it back). One reader per channel.
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T, undefined>) => void) | null = null;
  private closed = false;

  push(event: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  close(): void {
    this.closed = true;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => {
        const event = this.queue.shift();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
      // A reader that leaves drops what is queued; the run goes on.
      return: () => {
        this.queue.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
