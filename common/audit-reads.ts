/**
 * The local control plane's audit operations that only read (every platform's reads, lists, watches
 * and lookups): every other call is a write. For tests and tools that count what a run changed.
 */
export const READ_OPERATION = /^(Get|List|Watch|Query|Lookup|Describe)/;
