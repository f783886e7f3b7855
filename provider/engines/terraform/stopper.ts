/**
 * StopProvider (Ctrl-C in tofu): every apply in flight ends at once with an error, instead of
 * waiting for its platform operation. The object is not lost: what a create left behind carries the
 * resource's identity and the next apply adopts it; an update is planned again from what is there.
 */
export class Stopper {
  private stopped = false;
  private readonly waiting = new Set<(err: Error) => void>();

  /** Ends every apply in flight and any that starts later in this process. */
  stop(): void {
    this.stopped = true;
    const err = stopError();
    for (const reject of this.waiting) reject(err);
    this.waiting.clear();
  }

  /** Throws the stop error once the provider was stopped: work queued behind another must not start then. */
  throwIfStopped(): void {
    if (this.stopped) throw stopError();
  }

  /** Settles with `work`, or rejects when the provider is stopped first. */
  race<T>(work: Promise<T>): Promise<T> {
    // The abandoned operation may still fail later (it may be started already, or stop itself at
    // throwIfStopped); that failure is no longer anyone's to report.
    work.catch(() => undefined);
    if (this.stopped) return Promise.reject(stopError());
    let reject!: (err: Error) => void;
    const stop = new Promise<never>((_, r) => {
      reject = r;
    });
    this.waiting.add(reject);
    return Promise.race([work, stop]).finally(() => this.waiting.delete(reject));
  }
}

function stopError(): Error {
  return new Error(
    "clusterform: stopped (StopProvider, e.g. Ctrl-C) while waiting for the platform; the operation may still be running there. Run apply again: it adopts what a create left behind and plans anything else anew",
  );
}
