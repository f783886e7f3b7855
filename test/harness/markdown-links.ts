import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

/** One relative link of a Markdown file that does not lead where it says. */
export interface BrokenLink {
  /** The file holding the link, relative to the root given to {@link brokenLinks}. */
  file: string;
  /** 1-based line of the link. */
  line: number;
  /** The link target as written. */
  target: string;
  /** Why it is broken: a missing file, or a missing heading anchor. */
  reason: string;
}

/**
 * The anchor GitHub gives a heading: lower case, every character but letters, digits, spaces, `-`
 * and `_` dropped (so backticks and dots vanish), spaces turned into `-`.
 */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The text of a file without fenced code blocks (their lines kept blank, so line numbers hold). */
function withoutFences(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered as GitHub numbers them). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The link targets of one line, outside inline code: `[text](target)` and `[label]: target`. */
function targetsOf(line: string): string[] {
  const prose = line.replace(/`[^`]*`/g, "");
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const definition = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
  return definition ? [...inline, definition[1]] : inline;
}

/** Links that leave the repository (a scheme such as https: or mailto:), which this check leaves alone. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The broken relative links of `files` (paths relative to `root`): a target file or folder that does
 * not exist, or an anchor (`#part`) that no heading of the target Markdown file gives. Targets in
 * `tolerated` (paths relative to `root`) may be missing; when present they are checked like any other.
 */
export function brokenLinks(root: string, files: string[], tolerated: readonly string[] = []): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let set = anchorCache.get(file);
    if (!set) {
      set = anchorsOf(readFileSync(file, "utf8"));
      anchorCache.set(file, set);
    }
    return set;
  };
  for (const file of files) {
    const abs = path.join(root, file);
    withoutFences(readFileSync(abs, "utf8")).forEach((line, i) => {
      for (const target of targetsOf(line)) {
        if (EXTERNAL.test(target)) continue;
        const [rawPath, anchor] = target.split("#", 2);
        const targetFile = rawPath === "" ? abs : path.resolve(path.dirname(abs), decodeURI(rawPath));
        const rel = path.relative(root, targetFile);
        const report = (reason: string) => broken.push({ file, line: i + 1, target, reason });
        if (!existsSync(targetFile)) {
          if (!tolerated.includes(rel)) report(`${rel} does not exist`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(targetFile).isDirectory() || !targetFile.endsWith(".md")) report(`${rel} is not a Markdown file with headings`);
        else if (!anchors(targetFile).has(anchor)) report(`${rel} has no heading with the anchor #${anchor}`);
      }
    });
  }
  return broken;
}

/** Every `.md` file under `dir` (relative to `root`), sorted. */
export function markdownFilesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(".md")) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}
