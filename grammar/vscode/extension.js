// The VS Code side of Arbiter: colouring comes from the TextMate grammar (package.json); this
// starts `arbiter lsp` for `.arb` files and connects it through vscode-languageclient.
const { workspace } = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const command = workspace.getConfiguration("arbiter").get("path") || "arbiter";
  const server = { command, args: ["lsp"] };
  const options = { documentSelector: [{ scheme: "file", language: "arbiter" }] };
  client = new LanguageClient("arbiter", "Arbiter", server, options);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
