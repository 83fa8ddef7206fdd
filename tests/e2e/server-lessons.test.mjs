// The lessons over llama.cpp's real server (the project's own model as GGUF, so the server's model IS
// the embedded one): a lesson opened while the page is on the server stays on it, and shows the same
// tokens and numbers the embedded model shows; the lessons that need the embedded model's weights or
// the chapter's table switch to them visibly (zh and en), and one click brings the server back
// without a new Connect.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { screenshot } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";
import { connect, serverSuite } from "./server-suite.mjs";

const { env, open } = serverSuite();

const SHORT = {
  en: { exp1: "Exp. 1", exp2: "Exp. 2", exp3: "Exp. 3", myth1: "Myth 1", myth2: "Myth 2", myth3: "Myth 3", myth4: "Myth 4", myth5: "Myth 5", myth6: "Myth 6", quiz: "Quiz" },
  zh: { exp1: "实验一", myth2: "误解二", myth6: "误解六" },
};
const NAV = { en: "Lessons from the chapter", zh: "本章的课程" };
const body = (page) => page.locator("#lesson-body");
const source = (page) => page.locator("#source").inputValue();
const chipsText = async (page) => (await page.locator("#chips > li").allTextContents()).map((s) => s.replace(/^␣ /, " ")).join("");

/** Open a lesson and wait until its set-up and every answer it asked the server for are in. */
async function openLesson(page, id, lang = "en") {
  await page.getByRole("navigation", { name: NAV[lang] }).getByRole("button", { name: new RegExp(`^${SHORT[lang][id].replace(".", "\\.")}`) }).click();
  await settled(page);
}
async function settled(page) {
  await page.waitForFunction(() => {
    const panel = document.getElementById("lessons");
    const text = document.getElementById("lesson-body")?.textContent ?? "";
    return !panel?.hasAttribute("aria-busy") && !/Asking the model server|正在询问模型服务/.test(text) && !/…$/m.test(text);
  });
}
/** What a lesson shows as numbers: the counts, the bars and the table cells, in order. */
async function numbers(page) {
  return body(page).evaluate((root) => ({
    counts: [...root.querySelectorAll(".count")].map((e) => e.dataset.count),
    bars: [...root.querySelectorAll(".lesson-bars li")].map((li) => `${li.querySelector(".bar-label")?.textContent} ${li.querySelector(".bar-value")?.textContent}`),
    cells: [...root.querySelectorAll("td")].map((td) => td.textContent),
  }));
}
/** Percentages may differ in their last digit (the server's float logprobs vs ours, within 1e-2). */
function near(server, embedded, what) {
  const split = (s) => ({ label: s.replace(/[\d.]+%$/, ""), p: Number(s.match(/([\d.]+)%$/)?.[1] ?? NaN) });
  assert.equal(server.length, embedded.length, what);
  server.forEach((s, i) => {
    const [a, b] = [split(s), split(embedded[i])];
    assert.equal(a.label, b.label, `${what} ${i}`);
    if (!Number.isNaN(b.p)) assert.ok(Math.abs(a.p - b.p) <= 0.5, `${what} ${i}: ${s} vs ${embedded[i]}`);
  });
}

describe("lessons over a model server (llama.cpp)", () => {
  test("Exp. 3, Myth 3 and Myth 5 over the server: the same counts and bars as the embedded model, and they say whose", async () => {
    const { page, context, seen } = await open("?lang=en");
    const embedded = {};
    for (const id of ["exp3", "myth3", "myth5"]) {
      await openLesson(page, id);
      embedded[id] = await numbers(page);
    }
    assert.equal(embedded.exp3.counts.length, 2);
    // a lesson open while the page connects is set up again over the server, asking for its prompts
    // in the background (Myth 5: both of Exp. 3's): leave one on another prompt, so that what Exp. 3
    // asks below is its own
    await openLesson(page, "exp1");
    await connect(page, env.llama.url);
    // the page has read its prompt (the React prompt, left by Exp. 1) over the server
    await page.waitForFunction(() => !document.getElementById("step")?.disabled);
    for (const id of ["exp3", "myth3", "myth5"]) {
      const asked = seen.tokenized.length;
      await openLesson(page, id);
      assert.equal(await source(page), "server", `${id} keeps the server`);
      // Exp. 3's other prompt was asked of the server, not of the embedded model
      if (id === "exp3") assert.ok(seen.tokenized.slice(asked).includes("给一个代码编辑器插件起名："), seen.tokenized.join(" | "));
      assert.match(await body(page).locator(".lesson-server").textContent(), /^Running over the model server \(.+\): every token and number in this lesson is that model's\./);
      const server = await numbers(page);
      assert.deepEqual(server.counts, embedded[id].counts, `${id}: counts`);
      assert.deepEqual(server.cells, embedded[id].cells, `${id}: table`);
      near(server.bars, embedded[id].bars, `${id}: bars`);
      // Myth 3's closing words are computed from the server's own distribution
      if (id === "myth3") assert.match(await body(page).locator(".lesson-wrap").textContent(), /^At T = 2, “北京” keeps \d+(\.\d+)?% of the probability \(at T = 1: \d+(\.\d+)?%; at T = 0\.5: \d+(\.\d+)?%\)/);
    }
    // the lesson's sliders drive the server's glimpses too
    await openLesson(page, "exp3");
    await page.locator("#top-p").evaluate((input) => {
      input.value = "1";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await settled(page);
    const all = (await numbers(page)).counts.map(Number);
    assert.ok(all[0] > Number(embedded.exp3.counts[0]) && all[1] > Number(embedded.exp3.counts[1]), `${all}`);
    assert.ok(seen.toServer.filter((r) => r === "POST /completion").length < 40, "one answer per prompt, not per setting");
    await screenshot(page, "server-lesson-exp3.png");
    assert.deepEqual(seen.console, []);
    await context.close();
  });

  test("Exp. 1, Myth 1 and Myth 4 over the server: greedy's steps, forks and loops are the embedded model's", async () => {
    const { page, context } = await open("?lang=en");
    const run = async () => {
      await openLesson(page, "exp1");
      const bars1 = (await numbers(page)).bars;
      const top = body(page).locator(".lesson-bars li .bar-label").first();
      const first = (await top.textContent()).split(" (")[0];
      await body(page).locator(".lesson-choices").getByRole("button", { name: new RegExp(`^Greedy picks “${first}`) }).click();
      await body(page).getByRole("button", { name: "Step (greedy)" }).click();
      await settled(page);
      await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 1);
      const after1 = await body(page).locator(".lesson-wrap").textContent();
      await openLesson(page, "myth1");
      const greedy = await chipsText(page);
      await body(page).locator(".lesson-choices button").first().click();
      await settled(page);
      const paths = await body(page).locator(".lesson-paths li").allTextContents();
      await openLesson(page, "myth4");
      const verdict = await body(page).locator(".lesson-feedback").textContent();
      return { bars1, first, after1, greedy, paths, verdict, intro: await body(page).locator(".lesson-text").first().textContent() };
    };
    const embedded = await run();
    assert.equal(embedded.paths.length, 2);
    await connect(page, env.llama.url);
    const server = await run();
    assert.equal(await source(page), "server");
    near(server.bars1, embedded.bars1, "exp1 candidates");
    assert.equal(server.first, embedded.first);
    // the embedded model's sentence names its tokens; over a server the context is the live one
    assert.equal(server.after1, `The context is now “React 是一个用于构建${embedded.first}”: a new distribution, computed again from the whole context.`);
    assert.equal(server.greedy, embedded.greedy, "Myth 1: greedy runs to its end over the server");
    assert.ok(server.greedy.length > 2);
    assert.deepEqual(server.paths, embedded.paths, "Myth 1: the forced first token and greedy after it");
    assert.equal(server.verdict, embedded.verdict, "Myth 4: the same loop (or none)");
    assert.notEqual(server.intro, embedded.intro, "Myth 4 does not tell a server's model it loops");
    assert.match(server.intro, /Run greedy and sampling on this model/);
    await context.close();
  });

  test("Exp. 2 over the server: the same draws per seed, and its words name the server's likeliest token", async () => {
    const { page, context } = await open("?lang=en");
    const drawAll = async () => {
      await openLesson(page, "exp2");
      await body(page).getByRole("button", { name: "Draw 5 more" }).click();
      await settled(page);
      return body(page).locator(".lesson-draws li").allTextContents();
    };
    const embedded = await drawAll();
    assert.equal(embedded.length, 6);
    await connect(page, env.llama.url);
    const server = await drawAll();
    assert.equal(await source(page), "server");
    assert.deepEqual(server, embedded);
    assert.match(await body(page).locator(".lesson-wrap").textContent(), /^(Keep drawing: “用户” \(\d+(\.\d+)?%\) is the most likely first token|“.+” came up instead of the most likely “用户”)/);
    await context.close();
  });

  test("Myth 2 and Myth 6 say they leave the server, in en and zh; one click brings it back, no new Connect", async () => {
    const { page, context, seen } = await open("?lang=en");
    await connect(page, env.llama.url);
    const address = await page.locator("#server-address").inputValue();
    const connects = () => seen.toServer.filter((r) => r === "GET /v1/models").length;
    const before = connects();
    await openLesson(page, "myth2");
    assert.equal(await source(page), "manual");
    const note = body(page).locator(".lesson-server");
    assert.match(await note.textContent(), /This uses the chapter's hand-made table, not a model\. The model server \(.+\) stays connected\./);
    await screenshot(page, "server-lesson-myth2.png");
    await note.getByRole("button", { name: "Back to the model server" }).click();
    await page.waitForFunction(() => document.getElementById("source")?.value === "server");
    await page.waitForFunction(() => !document.getElementById("step")?.disabled);
    assert.match(await page.locator("#server-status").textContent(), /Connected/);
    assert.equal(await page.locator("#server-address").inputValue(), address);
    assert.equal(connects(), before, "no new Connect");
    // Myth 6 needs a model that gets 英国的首都是 wrong: the embedded one, said so
    await openLesson(page, "myth6");
    assert.equal(await source(page), "model");
    assert.match(await note.textContent(), /This runs on the embedded model: what it shows depends on that model's own weights/);
    // the next lesson comes back to the server by itself (the lessons follow it while it is connected)
    await openLesson(page, "exp1");
    assert.equal(await source(page), "server");
    // a lesson written for the embedded model, put on the server by hand, says its text may not match
    await openLesson(page, "myth6");
    await note.getByRole("button", { name: "Back to the model server" }).click();
    await page.waitForFunction(() => document.getElementById("source")?.value === "server");
    assert.match(await note.textContent(), /This lesson's text is about the embedded model .* its numbers may not match the text\./);
    await note.getByRole("button", { name: "Run it on the embedded model" }).click();
    await settled(page);
    assert.equal(await source(page), "model");
    assert.deepEqual(seen.console, []);
    await context.close();

    const zh = await open("?lang=zh");
    await connect(zh.page, env.llama.url);
    await openLesson(zh.page, "myth2", "zh");
    assert.match(await body(zh.page).locator(".lesson-server").textContent(), /这一部分用的是本章的手工表格，而不是模型。模型服务（.+）仍然保持连接。/);
    await openLesson(zh.page, "myth6", "zh");
    assert.match(await body(zh.page).locator(".lesson-server").textContent(), /这一部分在内置模型上运行/);
    await body(zh.page).locator(".lesson-server").getByRole("button", { name: "回到模型服务" }).click();
    await zh.page.waitForFunction(() => document.getElementById("source")?.value === "server");
    await openLesson(zh.page, "exp1", "zh");
    assert.match(await body(zh.page).locator(".lesson-server").textContent(), /^正在通过模型服务（.+）运行/);
    await screenshot(zh.page, "server-lesson-exp1-zh.png");
    await zh.context.close();
  });

  test("the Quiz's “try it” stays on the server where the question allows, and says when it leaves", async () => {
    const { page, context } = await open("?lang=en");
    await connect(page, env.llama.url);
    await openLesson(page, "quiz");
    assert.equal(await source(page), "server");
    const note = body(page).locator(".lesson-server");
    // question 2: greedy on the loop prompt, run to its end over the server
    await body(page).getByRole("button", { name: "Next" }).click();
    await body(page).getByRole("button", { name: "Try it: Strategy" }).click();
    await settled(page);
    assert.equal(await source(page), "server");
    await page.waitForFunction(() => document.getElementById("stop-reason")?.textContent !== "");
    const overServer = await chipsText(page);
    assert.ok(overServer.length > 3, overServer);
    // question 1 is about the chapter's hand-made table: it leaves the server and says so
    await body(page).getByRole("button", { name: "Previous" }).click();
    await body(page).getByRole("button", { name: "Try it: logits chart" }).click();
    await settled(page);
    assert.equal(await source(page), "manual");
    assert.match(await note.textContent(), /hand-made table.*stays connected/);
    // and question 2 comes back to the server by itself
    await body(page).getByRole("button", { name: "Next" }).click();
    await body(page).getByRole("button", { name: "Try it: Strategy" }).click();
    await settled(page);
    assert.equal(await source(page), "server");
    await page.waitForFunction(() => document.getElementById("stop-reason")?.textContent !== "");
    assert.equal(await chipsText(page), overServer);
    await context.close();
  });

  test("projector mode over the server: every lesson, with the line saying which model, fits one screen (zh, 1024×768)", async () => {
    const { page, context, seen } = await open("?lang=zh", { width: 1024, height: 768 });
    await connect(page, env.llama.url);
    await page.locator("#projector-toggle").click();
    await page.waitForFunction(() => document.body.dataset["projector"] === "true");
    const failures = [];
    for (const id of ["exp1", "exp2", "exp3", "myth1", "myth2", "myth3", "myth4", "myth5", "myth6", "quiz"]) {
      await page.getByRole("combobox", { name: "课程" }).selectOption(id);
      await settled(page);
      await page.locator("#lesson-title").waitFor();
      assert.equal(await body(page).locator(".lesson-server").isVisible(), true, id);
      const problems = await page.evaluate(fitProblems, { minPx: 24 });
      if (problems.length > 0) failures.push(`${id}: ${problems.join("; ")}`);
      if (id === "exp3" || id === "myth2") await screenshot(page, `server-projector-${id}.png`);
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(seen.console, []);
    await context.close();
  });
});
