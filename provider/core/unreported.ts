type Props = Record<string, unknown>;

/**
 * The state key of an imported object listing the inputs its platform could not report (see
 * core/import.ts). Present only in the state an import wrote; the first update's state drops it.
 */
export const IMPORT_UNREPORTED = "importUnreported";

/**
 * The old state with the inputs an import could not read taken from the program: the platform
 * cannot say what they are, so the program's values are the truth, and a preview right after an
 * import plans no change for them. Only fields still absent from the old state are taken, so once
 * the engine passes old inputs that hold them (a native plugin merges the Diff request's old inputs
 * over the old outputs), a later change of them is planned as usual.
 */
export function withUnreportedAdopted(olds: Props, news: Props): Props {
  const unreported = olds[IMPORT_UNREPORTED];
  if (!Array.isArray(unreported)) return olds;
  const adopted = unreported.filter((field): field is string => typeof field === "string" && olds[field] === undefined);
  return { ...olds, ...Object.fromEntries(adopted.map((field) => [field, news[field]])) };
}
