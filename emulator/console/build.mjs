// Bundles the web console (emulator/console/app: Preact, TSX) into dist/emulator/console/assets:
// index.html, app.js (Preact and the app, one ES module, minified) and app.css. The page loads
// nothing else, from nowhere else (its Content-Security-Policy says so too). Run by `npm run build`.
import { copyFileSync, mkdirSync } from "node:fs";
import { build } from "rolldown";

const app = "emulator/console/app/";
const out = "dist/emulator/console/assets/";
mkdirSync(out, { recursive: true });
await build({
  input: `${app}main.tsx`,
  platform: "browser",
  logLevel: "warn",
  tsconfig: `${app}tsconfig.json`,
  output: { file: `${out}app.js`, format: "esm", codeSplitting: false, minify: true },
});
copyFileSync(`${app}index.html`, `${out}index.html`);
copyFileSync(`${app}app.css`, `${out}app.css`);
