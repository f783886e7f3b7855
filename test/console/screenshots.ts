/**
 * Every screenshot test/console/console.test.ts takes, by name: `<name>.png` in
 * {@link CONSOLE_SCREENSHOT_DIR} when the test runs with CLUSTERFORM_UPDATE_SCREENSHOTS=1. The test
 * takes each one once; docs/local-plane.md shows each one, with a caption, and no other
 * (test/unit/console-screenshots.test.ts holds the page to this list).
 */
export const CONSOLE_SCREENSHOTS = [
  "cmassh-provisioning",
  "cmassh",
  "cyclecloud",
  "senlin",
  "peloton",
  "vcluster",
  "senlin-rolling-update",
  "cmassh-upgrade",
  "senlin-resize",
  "peloton-update",
  "audit",
  "faults",
] as const;

/** One screenshot's name. */
export type ConsoleScreenshot = (typeof CONSOLE_SCREENSHOTS)[number];

/** Where the documented screenshots live, from the repository's root. */
export const CONSOLE_SCREENSHOT_DIR = "docs/images/console";
