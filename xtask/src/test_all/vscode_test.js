// Run by `cargo xtask test` (xtask/src/test_all/vscode.rs) with Node:
// start code-server (a real VS Code in the browser) with the ptxkit
// extension installed, drive it from Debian's headless Chromium through
// puppeteer-core, open a broken .ptx file and a .cu file, open the
// Problems panel, and print what it lists as JSON on stdout; a screenshot
// is saved to $SHOT. Arguments come from the environment:
// CODE_SERVER, CHROMIUM, PUPPETEER (the puppeteer-core module folder),
// WORK (the folder opened), USER_DATA, EXTENSIONS, SHOT, PORT.
const { spawn } = require("child_process");
const puppeteer = require(process.env.PUPPETEER);

const env = process.env;
const port = env.PORT || "18423";

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitHttp(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return true;
    } catch (e) {}
    await sleep(250);
  }
  return false;
}

async function main() {
  const server = spawn(
    env.CODE_SERVER,
    [
      "--auth", "none",
      "--bind-addr", `127.0.0.1:${port}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--config", env.USER_DATA + "/config.yaml",
      "--user-data-dir", env.USER_DATA,
      "--extensions-dir", env.EXTENSIONS,
      env.WORK,
    ],
    { stdio: ["ignore", "ignore", "inherit"] }
  );
  let browser;
  let page;
  const result = { problems: [], ok: false };
  try {
    if (!(await waitHttp(`http://127.0.0.1:${port}/healthz`, 60000))) {
      throw new Error("code-server did not answer within 60 s");
    }
    browser = await puppeteer.launch({
      executablePath: env.CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--window-size=1400,900"],
      defaultViewport: { width: 1400, height: 900 },
    });
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(env.WORK)}`);
    await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
    // Open each file from the Explorer (a click focuses the workbench; a
    // double click opens the file for good).
    const open = async (name) => {
      const row = `.explorer-folders-view .monaco-list-row[aria-label^="${name}"]`;
      await page.waitForSelector(row, { visible: true, timeout: 60000 });
      await page.click(row, { clickCount: 2 });
      await page.waitForSelector(`.tab[aria-label^="${name}"]`, { timeout: 30000 });
      await sleep(1000);
    };
    // The .cu file first: the extension must activate for cuda-cpp alone.
    await open("kernel.cu");
    // Its error squiggle shows before any .ptx file is open.
    await page.waitForSelector(".monaco-editor .squiggly-error", { timeout: 60000 });
    result.cuFirst = true;
    await open("kernel.ptx");
    // The Problems panel, from the status bar's problems item.
    await page.click("#status\\.problems");
    const end = Date.now() + 60000;
    while (Date.now() < end) {
      result.problems = await page.$$eval(".markers-panel .monaco-list-row", (rows) =>
        rows.map((r) => (r.getAttribute("aria-label") || "") + " | " + r.textContent)
      );
      // Ours in both files: the duplicate declaration of the .ptx file and
      // the bad modifier inside the .cu file's asm string (line 3, col 11).
      const text = result.problems.join("\n");
      const cu = result.problems.some((p) => p.includes("E0202") && p.includes("[Ln 3, Col 11]"));
      const ptx = result.problems.some((p) => p.includes("E0402") && p.includes("[Ln 8, Col 12]"));
      if (text.includes("kernel.ptx") && text.includes("kernel.cu") && cu && ptx) {
        result.ok = true;
        break;
      }
      await sleep(500);
    }
  } catch (e) {
    result.error = String(e && e.stack ? e.stack : e);
  } finally {
    if (page) {
      await sleep(500);
      await page.screenshot({ path: env.SHOT }).catch(() => {});
    }
    if (browser) await browser.close();
    server.kill();
  }
  process.stdout.write(JSON.stringify(result) + "\n");
}

main();
