// postject ships no type declarations; this is the part of its API (dist/api.js) the release uses.
declare module "postject" {
  /** Injects `data` into the executable `file` as the resource `name` and flips the sentinel fuse. */
  export function inject(
    file: string,
    name: string,
    data: Buffer,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
