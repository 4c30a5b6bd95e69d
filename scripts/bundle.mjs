// Bundles the compiled CLI (dist/cli.js, with its chunks) and the analysis worker (one file) under
// dist/bundle/, which bin/looplens runs. Loading ~80 modules one by one (ESM resolution, a file
// read and a compile each) took ~140 ms of every run and of every worker thread; one file takes
// ~55 ms (bench: 67 MB transcript analysed in ~1.1 s, so ~8% of the run).
//
// Every dependency is bundled, so that an installed package needs no node_modules at all: the
// only file read beside the bundle is sql.js's WebAssembly (sql-wasm.wasm, copied here; read by
// src/adapters/openclaw/sqliteStore.ts). xxhash-wasm carries its WebAssembly inline.
//
// The worker keeps its name next to the CLI, so `new URL("./worker.js", import.meta.url)`
// finds it from either layout. CommonJS dependencies (sql.js) get a real `require` for the
// Node built-ins they load, and the `__dirname` that sql.js reads when it starts.
import { copyFileSync, existsSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "esbuild";

const OUT = "dist/bundle";

/**
 * string-width makes an Intl.Segmenter and a `\p{RGI_Emoji}` regular expression when its module is
 * evaluated (~25 and ~43 ms alone; `looplens --version` spends ~20 ms less CPU without them), paid by
 * every run although only a report with text other than narrow text calls it
 * (src/reporters/textFit.ts; test/commands/startup.cli.test.ts). It is bundled behind
 * a function that evaluates the module on its first call (a `require` of a bundled ES module is
 * evaluated when it is called). Nothing else changes: the same function is called with the same text.
 */
const lazyStringWidth = {
  name: "lazy-string-width",
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) => (args.namespace === "lazy" ? undefined : { path: "string-width", namespace: "lazy" }));
    build.onLoad({ filter: /^string-width$/, namespace: "lazy" }, () => ({
      contents: "let width; export default function stringWidth(text, options) { width ??= require('string-width').default; return width(text, options); }",
      resolveDir: process.cwd(),
    }));
  },
};

const COMMON = {
  outdir: OUT,
  entryNames: "[name]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  plugins: [lazyStringWidth],
  banner: {
    js: [
      "import { createRequire as __looplensRequire } from 'node:module';",
      "import { fileURLToPath as __looplensPath } from 'node:url';",
      "const require = __looplensRequire(import.meta.url);",
      "const __dirname = __looplensPath(new URL('.', import.meta.url));",
    ].join(" "),
  },
};

// Whitespace and syntax are minified (about half the size: the installed footprint stays under
// 5 MB with the declarations, test/install/packedInstall.test.ts); names are kept, so that stack
// traces still name their functions. Start-up measured the same either way (`looplens --version`).
const MINIFIED = { minifyWhitespace: true, minifySyntax: true };

// Chunks of earlier builds are removed first (their names are hashes: they would pile up in the
// package). A fresh clone has no earlier build, nor the folder.
if (existsSync(OUT)) for (const name of readdirSync(OUT)) if (/^(library|cli)-\w+\.js$/.test(name)) rmSync(`${OUT}/${name}`);

// The CLI in two parts: cli.js holds commander, every command's flags and analyze up to its
// kept-output lookup; the commands' work (src/commands/commandWork.ts, imported when a command runs)
// is a chunk of its own (cli-*.js, with a chunk of what both share), so that `--version`, `--help`
// and a kept output compile and evaluate about half the code (test/commands/startup.cli.test.ts).
await build({ ...COMMON, ...MINIFIED, entryPoints: ["dist/cli.js"], splitting: true, chunkNames: "cli-[hash]" });

// The worker: one file, no chunk to load when a thread starts.
await build({ ...COMMON, ...MINIFIED, entryPoints: ["dist/pipeline/worker.js"] });

// The library (`looplens`, `looplens/vitest`, `looplens/jest`): one shared chunk (library-*.js),
// because the matchers must meet the same module as `analyze` (`format` finds a report's model in a
// WeakMap there, and `instanceof InputError` needs one class). vitest and jest are the caller's own.
// Minified as the CLI is.
await build({
  ...COMMON,
  entryPoints: ["dist/index.js", "dist/vitest.js", "dist/jest.js"],
  splitting: true,
  chunkNames: "library-[hash]",
  external: ["vitest"],
  ...MINIFIED,
});

copyFileSync(createRequire(import.meta.url).resolve("sql.js/dist/sql-wasm.wasm"), `${OUT}/sql-wasm.wasm`);
