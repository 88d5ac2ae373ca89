// Tokenizes .game files with grammar/ludic.tmLanguage.json as VS Code does (vscode-textmate
// on the Oniguruma regex engine) and prints one line per token: LINE<TAB>TEXT<TAB>SCOPES.
// Run by tests/textmate.rs when node and the two packages are present:
//   npm install --prefix tests/textmate   (see package.json)
//   node tests/textmate/tokenize.js FILE.game...
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const grammarPath = path.join(__dirname, '..', '..', 'grammar', 'ludic.tmLanguage.json');
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) =>
    scope === 'source.ludic'
      ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath)
      : null,
});

registry.loadGrammar('source.ludic').then((grammar) => {
  for (const file of process.argv.slice(2)) {
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    let stack = vsctm.INITIAL;
    lines.forEach((line, i) => {
      const r = grammar.tokenizeLine(line, stack);
      for (const t of r.tokens) {
        const text = line.substring(t.startIndex, t.endIndex);
        if (text.trim() !== '') {
          console.log(`${i + 1}\t${text}\t${t.scopes.join(' ')}`);
        }
      }
      stack = r.ruleStack;
    });
  }
}).catch((e) => { console.error(e); process.exit(1); });
