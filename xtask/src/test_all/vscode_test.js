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
      "--user-data-dir", env.USER_DATA,
      "--extensions-dir", env.EXTENSIONS,
      env.WORK,
    ],
    { stdio: ["ignore", "ignore", "inherit"] }
  );
  let browser;
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
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(env.WORK)}`);
    await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
    await sleep(3000);
    const open = async (name) => {
      await page.keyboard.down("Control");
      await page.keyboard.press("KeyP");
      await page.keyboard.up("Control");
      await page.waitForSelector(".quick-input-widget input", { visible: true, timeout: 20000 });
      await page.keyboard.type(name);
      await sleep(1500);
      await page.keyboard.press("Enter");
      await sleep(2000);
    };
    await open("kernel.ptx");
    await open("kernel.cu");
    // The Problems panel.
    await page.keyboard.down("Control");
    await page.keyboard.down("Shift");
    await page.keyboard.press("KeyM");
    await page.keyboard.up("Shift");
    await page.keyboard.up("Control");
    const end = Date.now() + 60000;
    while (Date.now() < end) {
      result.problems = await page.$$eval(".markers-panel .monaco-list-row", (rows) =>
        rows.map((r) => r.getAttribute("aria-label") || r.textContent)
      );
      const text = result.problems.join("\n");
      if (text.includes("kernel.ptx") && text.includes("kernel.cu") && /E0\d\d\d/.test(text)) {
        result.ok = true;
        break;
      }
      await sleep(500);
    }
    await sleep(500);
    await page.screenshot({ path: env.SHOT });
  } catch (e) {
    result.error = String(e && e.stack ? e.stack : e);
  } finally {
    if (browser) await browser.close();
    server.kill();
  }
  process.stdout.write(JSON.stringify(result) + "\n");
}

main();
