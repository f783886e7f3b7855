/**
 * Runs tasks of one key one after another, in the order they arrive; tasks of different keys run
 * at once. A task that fails does not stop the next one of its key.
 */
export class Turns {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const mine = (this.tails.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
    this.tails.set(key, mine);
    const done = () => {
      if (this.tails.get(key) === mine) this.tails.delete(key);
    };
    mine.then(done, done);
    return mine;
  }
}
