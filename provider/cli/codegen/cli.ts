import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { generatedFiles } from "./generate";

// `npm run generate:schema`: writes schema.json and the generated SDK files from the resource definitions.
// dist/provider/cli/codegen/cli.js lies four folders below the repository root.
const root = path.resolve(__dirname, "..", "..", "..", "..");
void generatedFiles(root).then((files) => {
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file.path)), { recursive: true });
    writeFileSync(path.join(root, file.path), file.text);
    console.log(`wrote ${file.path}`);
  }
});
