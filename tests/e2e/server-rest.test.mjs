// The page over llama.cpp's real server when only the top N of a large vocabulary is known
// (issue 12's leftovers): the rest of the vocabulary drawn as one hatched, labelled bar that
// cannot be forced, kept apart from the draw on the 0–1 strip exactly as the core's trace says;
// the kept count and entropy said to cover the listed tokens (with the core's bounds); a held
// server link whose address follows the settings; two overlapping prompt changes ending on the
// later one. (A token the server never listed, refused in the server's words: server-playground.test.mjs.)
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { screenshot } from "./harness.mjs";
import { asLargeVocabulary, chipTexts, connect, serverSuite, setNumber, stepReady, stepServer } from "./server-suite.mjs";

const { env, open } = serverSuite();

/** Sampling with no cut: the rest of the vocabulary stays in play to the end (not exact). */
async function noCut(page) {
  await page.locator("#strategy").selectOption("sample");
  await setNumber(page, "top-k", 0);
  await setNumber(page, "top-p", 1);
  await setNumber(page, "min-p", 0);
}

/** The enlarged chart of projector mode: ↑ until it is `stage`. */
async function projectorChart(page, stage) {
  await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
  for (let i = 0; i < 12; i++) {
    if ((await page.locator("#stages .stage.pj-focus").getAttribute("data-stage")) === stage) return;
    await page.keyboard.press("ArrowUp");
  }
  assert.fail(`no ${stage} chart in projector mode`);
}

describe("model server: what a top N leaves out", () => {
  test("the rest of the vocabulary: one hatched bar of its own probability, never forced; beside the strip, outside the draw", async () => {
    const { page, context, seen } = await open("?lang=en");
    assert.equal(await page.locator("#stages .bar.vocab-rest").count(), 0, "the embedded model scores its whole vocabulary: no rest bar");
    await asLargeVocabulary(page, env.llama);
    await page.locator("#prompt").fill("给一个代码编辑器插件起名：");
    await page.locator("#prompt").press("Tab");
    await connect(page, env.llama.url);
    await noCut(page);
    await page.waitForFunction(() => /over the listed tokens only/.test(document.getElementById("server-rest")?.textContent ?? ""));
    await stepReady(page);
    const restLine = await page.locator("#server-rest").textContent();
    const shown = /: (\d+(?:\.\d+)?%)/.exec(restLine)?.[1];
    assert.ok(shown, restLine);

    // softmax: the bar is the rest's p_raw, labelled, hatched, a picture not a button
    const softmax = page.locator('#stages .stage[data-stage="softmax"]');
    const bar = softmax.locator(".bar.vocab-rest");
    assert.equal(await bar.count(), 1);
    assert.ok((await softmax.locator(".rest-marks line.rest-hatch").count()) > 3, "hatched");
    assert.equal(await softmax.locator(".rest-marks .rest-label").textContent(), "rest of the vocabulary");
    assert.equal(await softmax.locator(".tick-label.vocab-rest").textContent(), "unlisted");
    assert.ok((await softmax.locator(".value").allTextContents()).includes(shown), `its value ${shown} is written over it`);
    await page.waitForFunction(() => (document.querySelector('#stages .stage[data-stage="softmax"] .bar.vocab-rest')?.getBoundingClientRect().height ?? 0) > 1);
    // drawn to the same scale as the tokens' p_raw: heights in the ratio of the written values
    const [restHeight, firstHeight] = await softmax.locator(".bar").evaluateAll((bars) => {
      const h = (b) => Number(b.getAttribute("height"));
      return [h(bars.find((b) => b.classList.contains("vocab-rest"))), h(bars[0])];
    });
    const firstValue = Number((await softmax.locator(".value").first().textContent()).replace("%", ""));
    const ratio = restHeight / firstHeight / (Number(shown.replace("%", "")) / firstValue);
    assert.ok(Math.abs(ratio - 1) < 0.05, `rest bar ${restHeight} vs first ${firstHeight}: ${ratio}`);
    const fill = await bar.evaluate((b) => getComputedStyle(b).fill);
    const tokenFill = await softmax.locator(".bar.kept").first().evaluate((b) => getComputedStyle(b).fill);
    assert.notEqual(fill, tokenFill, "grey, not a token's colour");
    const hit = softmax.locator(".hit.vocab-rest");
    assert.equal(await hit.getAttribute("role"), "img");
    assert.equal(await hit.getAttribute("aria-label"), `Rest of the vocabulary: ${shown} together, the 151,736 tokens the server did not list. Not a token, so it cannot be chosen or forced.`);
    assert.equal(await softmax.getByRole("button", { name: /Rest of the vocabulary/ }).count(), 0);
    // clicking it or pressing Enter on it forces nothing
    await hit.click();
    await hit.focus();
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    assert.equal(await page.locator("#generated li").count(), 0);
    assert.equal(await page.locator("#error").isVisible(), false);

    // the strip: the draw covers the listed tokens; the rest sits apart, "not drawn", and u is left of it
    const box = page.locator("#cdf .vocab-rest-box");
    assert.equal(await box.isVisible(), true);
    assert.equal(await box.locator(".vocab-rest-label").textContent(), "rest of the vocabulary");
    assert.equal(await box.locator(".vocab-rest-status").textContent(), `${shown} · not drawn`);
    const boxX = (await box.boundingBox()).x;
    const u = await page.locator("#cdf .u-marker line").boundingBox();
    assert.ok(u.x < boxX, "u lands on the strip of the listed tokens, never in the rest's box");
    const bandsEnd = await page.locator("#cdf .band").evaluateAll((bands) => Math.max(...bands.map((b) => b.getBoundingClientRect().right)));
    assert.ok(bandsEnd < boxX, "no band runs into the rest's box");
    assert.match(await page.locator("#cdf").getAttribute("aria-label"), /^u = \d\.\d{3} falls in the band of “.+”.*\. Rest of the vocabulary, \d+(\.\d+)?%: not part of the draw\. u falls among the listed tokens only\.$/);
    assert.match(await page.locator("#final-explain").textContent(), /is not part of the draw: the core draws u over the 200 listed tokens only, so the bands above add up to 1 over those tokens/);
    // the kept count and the entropy say what they cover
    assert.match(await page.locator("#stat-kept").textContent(), /^200 of the 200 listed \(the other 151,736 not known\)$/);
    const entropy = await page.locator("#stat-entropy").textContent();
    const [, h, lo, hi] = /^([\d.]+) bits over the listed tokens \(raw, whole vocabulary: ([\d.]+)–([\d.]+) bits\)$/.exec(entropy) ?? [];
    assert.ok(h && Number(lo) <= Number(hi), entropy);
    assert.ok(Number(lo) > Number(h) - 1e-9, `the whole vocabulary's raw entropy is at least the listed tokens' part: ${entropy}`);
    await screenshot(page, "server-rest-en.png");
    await page.locator("#projector-toggle").click();
    await projectorChart(page, "softmax");
    assert.equal(await page.locator('#stages .stage.pj-focus[data-stage="softmax"] .bar.vocab-rest').isVisible(), true);
    assert.equal(await box.isVisible(), true);
    const labelSize = await page.locator("#stages .stage.pj-focus .rest-label").evaluate((t) => t.getBoundingClientRect().height);
    assert.ok(labelSize >= 17, `the label is legible on a projector: ${labelSize}px`);
    await screenshot(page, "server-rest-projector-en.png");
    await page.locator("#projector-toggle").click();

    // top-k 40: the cut removes every unlisted token, and the charts and numbers say it is exact
    await setNumber(page, "top-k", 40);
    await page.waitForFunction(() => /^40 of 151,936/.test(document.getElementById("stat-kept")?.textContent ?? ""));
    assert.equal(await page.locator("#stat-kept").textContent(), "40 of 151,936 (exact: top-k removed every unlisted token)");
    const topK = page.locator('#stages .stage[data-stage="top_k"]');
    assert.equal(await topK.locator(".note.removed-here").filter({ hasText: "✕ top-k" }).count() >= 1, true);
    assert.match(await topK.locator(".hit.vocab-rest").getAttribute("aria-label"), /^Rest of the vocabulary \(\d+(\.\d+)?%\): removed by top-k\./);
    assert.equal(await box.locator(".vocab-rest-status").textContent(), `${shown} · removed by top-k`);
    assert.match(await page.locator("#final-explain").textContent(), /was removed by top-k, as it would be over the whole vocabulary/);
    assert.match(await page.locator("#stat-entropy").textContent(), /^[\d.]+ bits \(raw, whole vocabulary: [\d.]+–[\d.]+ bits\)$/);
    await topK.scrollIntoViewIfNeeded();
    await screenshot(page, "server-rest-top-k-en.png");
    await stepServer(page, 1);
    assert.deepEqual(seen.console, []);
    await context.close();
  });

  test("zh: 「词表其余部分」 in the charts and beside the strip, normal and projector", async () => {
    const { page, context } = await open("?lang=zh");
    await asLargeVocabulary(page, env.llama);
    await page.locator("#prompt").fill("给一个代码编辑器插件起名：");
    await page.locator("#prompt").press("Tab");
    await connect(page, env.llama.url);
    await noCut(page);
    await page.waitForFunction(() => /只在列出的/.test(document.getElementById("server-rest")?.textContent ?? ""));
    await stepReady(page);
    const softmax = page.locator('#stages .stage[data-stage="softmax"]');
    assert.equal(await softmax.locator(".rest-label").textContent(), "词表其余部分");
    assert.equal(await softmax.locator(".tick-label.vocab-rest").textContent(), "未列出");
    assert.match(await softmax.locator(".hit.vocab-rest").getAttribute("aria-label"), /^词表其余部分：合计 \d+(\.\d+)?%，是服务没有列出的 151,736 个 Token。它不是一个 Token，不能被选中或强制。$/);
    assert.equal(await page.locator("#cdf .vocab-rest-label").textContent(), "词表其余部分");
    assert.match(await page.locator("#cdf .vocab-rest-status").textContent(), /^\d+(\.\d+)?% · 不参与抽样$/);
    assert.match(await page.locator("#cdf").getAttribute("aria-label"), /。词表其余部分，\d+(\.\d+)?%：不参与抽样。u 只落在列出的 Token 上。$/);
    assert.match(await page.locator("#stat-kept").textContent(), /^列出的 200 个中保留 200 个（其余 151,736 个未知）$/);
    assert.match(await page.locator("#stat-entropy").textContent(), /^列出的 Token 上 [\d.]+ bit（原始，整个词表：[\d.]+–[\d.]+ bit）$/);
    await screenshot(page, "server-rest-zh.png");
    await page.locator("#projector-toggle").click();
    await projectorChart(page, "softmax");
    await screenshot(page, "server-rest-projector-zh.png");
    const kept = await page.locator(".projector-nums, [aria-label='关键数字']").first().textContent().catch(() => "");
    assert.ok(kept === "" || /列出的 200/.test(kept), kept);
    await context.close();
  });

  test("a held server link: the address bar and Share follow the settings, keep the server, and nothing connects before a click", async () => {
    const query = `?lang=en&source=server&server=${encodeURIComponent(env.llama.url)}&api=llama.cpp&strategy=greedy&path=5605.5114&temperature=0.5`;
    const { page, context, seen } = await open(query);
    await setNumber(page, "temperature", 0.7);
    await page.waitForFunction(() => new URL(location.href).searchParams.get("temperature") === "0.7");
    const address = new URL(page.url()).searchParams;
    assert.equal(address.get("source"), "server");
    assert.equal(address.get("server"), env.llama.url);
    assert.equal(address.get("api"), "llama.cpp");
    assert.equal(address.get("path"), "5605.5114", "the link's tokens stay while its prompt does");
    await page.getByRole("button", { name: "Share / Embed" }).click();
    const dialog = page.getByRole("dialog", { name: "Share or embed this exact state" });
    const shared = new URL(await dialog.getByLabel("Link", { exact: true }).inputValue()).searchParams;
    assert.equal(shared.get("temperature"), "0.7");
    assert.equal(shared.get("server"), env.llama.url);
    assert.equal(shared.get("path"), "5605.5114");
    await page.keyboard.press("Escape");
    // a new prompt: the link's tokens (for its old prompt) go, the server stays
    await page.locator("#prompt").fill("中国的首都是");
    await page.locator("#prompt").press("Tab");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("prompt") === "中国的首都是");
    const after = new URL(page.url()).searchParams;
    assert.equal(after.get("source"), "server");
    assert.equal(after.get("server"), env.llama.url);
    assert.equal(after.get("path"), null);
    assert.equal(after.get("temperature"), "0.7");
    await page.waitForTimeout(300);
    assert.deepEqual(seen.toServer, [], "a link never connects by itself");
    // Connect: the settings as they are now, over the server
    await page.locator("#server-connect").click();
    await page.waitForFunction(() => document.getElementById("server-status")?.dataset["state"] === "connected");
    await stepServer(page, 1);
    assert.deepEqual(await chipTexts(page), ["北京"]);
    const connected = new URL(page.url()).searchParams;
    assert.equal(connected.get("temperature"), "0.7");
    assert.equal(connected.get("prompt"), "中国的首都是");
    assert.equal(connected.get("server"), env.llama.url);
    await context.close();
  });

  test("two prompt changes while the first is still read: the later prompt wins, nothing stale", async () => {
    const { page, context, seen } = await open("?lang=en&strategy=greedy");
    await connect(page, env.llama.url);
    await stepReady(page);
    const slow = "The capital of France is";
    // the server takes 1.5 s to read the first new prompt
    await page.route(`${env.llama.url}/tokenize`, async (route) => {
      if ((route.request().postData() ?? "").includes(slow)) await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.fallback().catch(() => {});
    });
    seen.bodies.length = 0;
    await page.locator("#prompt").fill(slow);
    await page.locator("#prompt").press("Tab");
    await page.locator("#prompt").fill("中国的首都是");
    await page.locator("#prompt").press("Tab");
    await stepReady(page);
    await page.waitForTimeout(2000);
    assert.match(await page.locator("#stat-chosen").textContent(), /^北京 ·/);
    await stepServer(page, 1);
    assert.deepEqual(await chipTexts(page), ["北京"]);
    const asked = new Set(seen.bodies.filter((b) => b.path === "/completion").map((b) => JSON.stringify(b.body.prompt.slice(0, 3))));
    assert.equal(asked.size, 1, `every answer asked for is the later prompt's: ${[...asked].join(" | ")}`);
    await context.close();
  });
});
