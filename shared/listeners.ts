/**
 * A set of listeners for one kind of change: `add` returns the function that removes the
 * listener again, `emit` calls each listener in the order added. A listener added or removed while
 * `emit` runs follows Set iteration (an added one is called in that round, a removed one not).
 */
export class Listeners<T = void> {
  private readonly fns = new Set<(value: T) => void>();

  add(fn: (value: T) => void): () => void {
    this.fns.add(fn);
    return () => {
      this.fns.delete(fn);
    };
  }

  emit(value: T): void {
    for (const fn of this.fns) fn(value);
  }

  get size(): number {
    return this.fns.size;
  }
}
