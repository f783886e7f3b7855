import type { TestStack } from "./cmassh-stack";

/** What the preview of one group of bad inputs gave: its error text and the API calls it made. */
export interface GroupPreview {
  failure: string | undefined;
  calls: unknown[];
}

/**
 * Bad inputs of one resource share a preview: the first test of a group configures the stack
 * (`configure`), previews and keeps the error text and the API calls; the group's other tests read
 * the same result. `stack` is read when a group first runs, after the suite's `beforeAll`.
 */
export function groupPreviews<G>(stack: () => TestStack, configure: (group: G) => Promise<void>): (group: G) => Promise<GroupPreview> {
  const previews = new Map<G, Promise<GroupPreview>>();
  return (group) => {
    let preview = previews.get(group);
    if (!preview) {
      preview = (async () => {
        await configure(group);
        const t = stack();
        const since = await t.plane.lastSeq();
        const failure = await t.stack.preview().then(
          () => undefined,
          (err: Error) => err.message,
        );
        return { failure, calls: await t.plane.audit(since) };
      })();
      previews.set(group, preview);
    }
    return preview;
  };
}

/**
 * The error lines of resource `resource` that `named` matches: one input's own messages, so a
 * grouped input cannot pass on another input's message.
 */
export function ownErrorLines(failure: string | undefined, resource: string, named: RegExp): string {
  return (failure ?? "")
    .split("\n")
    .filter((line) => line.startsWith("error: ") && line.includes(` resource '${resource}'`) && named.test(line))
    .join("\n");
}
