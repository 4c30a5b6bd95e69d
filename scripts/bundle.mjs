// Bundles the compiled CLI (dist/cli.js) and the analysis worker into one file each under
// dist/bundle/, which bin/looplens runs. Loading ~80 modules one by one (ESM resolution, a file
// read and a compile each) took ~140 ms of every run and of every worker thread; one file takes
// ~55 ms (bench: 67 MB transcript analysed in ~1.1 s, so ~8% of the run).
//
// The worker keeps its name next to the CLI, so `new URL("./worker.js", import.meta.url)`
// finds it from either layout. CommonJS dependencies (sql.js) get a real `require` for the
// Node built-ins they load.
import { build } from "esbuild";

await build({
  entryPoints: ["dist/cli.js", "dist/pipeline/worker.js"],
  outdir: "dist/bundle",
  entryNames: "[name]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  banner: { js: "import { createRequire as __looplensRequire } from 'node:module'; const require = __looplensRequire(import.meta.url);" },
});
