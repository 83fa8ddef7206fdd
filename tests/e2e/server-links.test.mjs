// A link made with a model server, against llama.cpp's real server: the page never
// connects by itself, so it opens saying so — a visible notice in every mode (zh and en) naming the
// server, with Connect right there — and the link's lesson and settings apply over the server once
// connected. Each test failed on the build before the fix (the lesson link opened quietly on the
// embedded model and dropped the server from the address bar; projector and embed mode showed no
// word of the server; `?server=…` alone was ignored).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { screenshot } from "./harness.mjs";
import { serverSuite } from "./server-suite.mjs";

const { env, open } = serverSuite();
const notice = (page) => page.locator("#server-link-notice");
const chips = (page) => page.locator("#generated li");

describe("a link made with a model server", () => {
  test("a lesson link (en): the notice names the server, nothing is asked before Connect, then the lesson is set up over the server", async () => {
    const url = env.llama.url;
    const { page, context, seen } = await open(`?lang=en&lesson=exp1&source=server&server=${encodeURIComponent(url)}&api=llama.cpp`);
    // meanwhile the lesson's page is set up on the embedded model, with "Model server" still chosen
    await page.waitForFunction(() => document.getElementById("prompt").value === "React 是一个用于构建" && !document.getElementById("lessons").hasAttribute("aria-busy"));
    await page.waitForTimeout(300);
    assert.deepEqual(seen.toServer, [], "a link never connects by itself");
    assert.equal(await page.locator("#source").inputValue(), "server", "the server panel is shown");
    assert.match(await page.locator("#lesson-body").textContent(), /React 是一个用于构建/);
    assert.equal(await page.locator("#server-address").inputValue(), url);
    assert.equal(await notice(page).isVisible(), true);
    assert.match(await notice(page).textContent(), new RegExp(`lesson link was made with the model server at ${url.replace(/[.:/]/g, "\\$&")}\\. Click Connect`));
    const address = new URL(page.url()).searchParams;
    assert.equal(address.get("source"), "server", "the address bar keeps the link's server");
    assert.equal(address.get("server"), url);
    assert.equal(address.get("lesson"), "exp1");
    await screenshot(page, "server-link-lesson-en.png");
    await notice(page).getByRole("button", { name: `Connect to the model server at ${url}` }).click();
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    // the lesson set up anew, over the server: its prompt and greedy, and its line says whose numbers
    await page.waitForFunction(() => document.querySelector(".lesson-server")?.hidden === false && !document.getElementById("lessons").hasAttribute("aria-busy"));
    assert.equal(await page.locator("#prompt").inputValue(), "React 是一个用于构建");
    assert.equal(await notice(page).isHidden(), true, "the notice goes once connected");
    assert.equal(await page.locator("#strategy").inputValue(), "greedy");
    assert.equal(await page.locator("#source").inputValue(), "server");
    assert.match(await page.locator(".lesson-server").textContent(), /model server/i, "the lesson says it runs over the server");
    const before = seen.toServer.length;
    await page.locator("#step").click();
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 1);
    assert.ok(seen.toServer.includes("POST /tokenize") && seen.toServer.includes("POST /completion"), seen.toServer.join(", "));
    assert.ok(seen.toServer.length >= before);
    assert.deepEqual(seen.console, []);
    await context.close();
  });

  test("projector mode (zh): the notice is on screen in Chinese, and the link's settings apply once connected", async () => {
    const url = env.llama.url;
    const { page, context, seen } = await open(`?lang=zh&projector=1&source=server&server=${encodeURIComponent(url)}&strategy=sample&temperature=0.5&seed=7&prompt=${encodeURIComponent("中国的首都是")}`, { width: 1280, height: 800 });
    await page.waitForTimeout(300);
    assert.deepEqual(seen.toServer, []);
    const box = await notice(page).boundingBox();
    assert.ok(box !== null && box.y >= 0 && box.y + box.height <= 800, "the notice is on the screen");
    assert.match(await notice(page).textContent(), /这个链接是用 .+ 上的模型服务做的。点击「连接」/);
    await screenshot(page, "server-link-projector-zh.png");
    await notice(page).getByRole("button", { name: `连接 ${url} 上的模型服务` }).click();
    await page.waitForFunction(() => document.getElementById("server-link-notice").hidden);
    await page.waitForFunction(() => new URL(location.href).searchParams.get("source") === "server");
    const address = new URL(page.url()).searchParams;
    assert.equal(address.get("temperature"), "0.5");
    assert.equal(address.get("seed"), "7");
    assert.equal(address.get("server"), url);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 1);
    assert.ok(seen.toServer.includes("POST /completion"), seen.toServer.join(", "));
    await context.close();
  });

  test("embed mode and a link naming only `server=`: the notice is there; a failed Connect is said in the notice, and Connect can be tried again", async () => {
    const { page, context, seen } = await open("?lang=en&embed=1&server=http%3A%2F%2F127.0.0.1%3A9", { width: 800, height: 600 });
    assert.equal(await notice(page).isVisible(), true);
    assert.match(await notice(page).textContent(), /made with the model server at http:\/\/127\.0\.0\.1:9\./);
    assert.equal(new URL(page.url()).searchParams.get("server"), "http://127.0.0.1:9");
    assert.deepEqual(seen.toServer, []);
    const connect = notice(page).getByRole("button", { name: /^Connect to the model server/ });
    await connect.click();
    await page.waitForFunction(() => document.getElementById("server-link-notice").dataset["state"] === "error");
    assert.match(await notice(page).textContent(), /Could not connect/);
    assert.equal(await connect.isEnabled(), true);
    await screenshot(page, "server-link-embed-failed.png");
    // the embedded model still works meanwhile
    await page.locator("#step").click();
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 1);
    assert.equal(await chips(page).count(), 1);
    await context.close();
  });

  test("choosing the embedded model puts the notice away; choosing the server again brings it back", async () => {
    const url = env.llama.url;
    const { page, context } = await open(`?lang=en&source=server&server=${encodeURIComponent(url)}`);
    assert.equal(await notice(page).isVisible(), true);
    await page.locator("#source").selectOption("model");
    await page.waitForFunction(() => document.getElementById("server-link-notice").hidden);
    await page.locator("#source").selectOption("server");
    await page.waitForFunction(() => !document.getElementById("server-link-notice").hidden);
    await context.close();
  });
});
