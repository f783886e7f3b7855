/**
 * Hides only the ExperimentalWarning node:sqlite emits on Node versions that still flag it, so the
 * CLI's output stays one line. Must be imported before anything that loads node:sqlite.
 */
const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;

function isSqliteExperimentalWarning(args: unknown[]): boolean {
  const [warning, typeOrOptions] = args;
  const message = warning instanceof Error ? warning.message : String(warning);
  const type =
    warning instanceof Error
      ? warning.name
      : typeof typeOrOptions === "object" && typeOrOptions !== null
        ? (typeOrOptions as { type?: string }).type
        : typeOrOptions;
  return type === "ExperimentalWarning" && /sqlite/i.test(message);
}

process.emitWarning = ((...args: unknown[]) => {
  if (!isSqliteExperimentalWarning(args)) emitWarning(...args);
}) as typeof process.emitWarning;
