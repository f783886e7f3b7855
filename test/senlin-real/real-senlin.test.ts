import { describe } from "vitest";
import { parityScenarios } from "./parity";
import { providerSteps } from "./provider";

// The suites of the real Senlin in one test file, so that one worker runs them one after the other
// (the real Senlin answered 500s with more at once) while the other workers run the rest of the
// suite beside them: as two files of a project with file parallelism off, vitest ran them alone
// after every other file, four and a half minutes with one worker busy. Run one of them with
// `-t "the local plane against"` (parity) or `-t "the provider's Senlin resources"`.
describe("the real Senlin 14: parity", parityScenarios);
describe("the real Senlin 14: the provider", providerSteps);
