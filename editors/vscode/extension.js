// The VS Code side of `ptx lsp`: start the server for .ptx files and for
// CUDA C++ (`cuda-cpp`, where it checks the `asm` strings beside the C++
// extension's own server) and pass it the `ptx.target`, `ptx.largeAbove` and
// `ptx.largeTotal` settings.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("ptx");
  const command = config.get("server.path") || "ptx";
  const serverOptions = { command, args: ["lsp"] };
  const clientOptions = {
    documentSelector: [
      { language: "ptx" },
      { language: "cuda-cpp" },
      { language: "cpp", pattern: "**/*.{h,hpp,inl}" },
    ],
    initializationOptions: {
      target: config.get("target") || "",
      largeAbove: config.get("largeAbove"),
      largeTotal: config.get("largeTotal"),
    },
    synchronize: { configurationSection: "ptx" },
  };
  client = new LanguageClient("ptx", "PTX (ptxkit)", serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
