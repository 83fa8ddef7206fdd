// A lesson named alone in a link (or an element's lesson attribute), in Chromium: the link sets the
// lesson's page up (greedy and the first-token choices for 误解一, the chapter's hand-made table for
// 误解二); a shared lesson link made with its own page keeps that page. A link that also names
// settings or a prompt gets the lesson set up with those on top; one it sets itself is named in the
// link notice.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

describe("a lesson named alone in a link (or an element's lesson attribute) sets its page up", () => {
  test("zh ?lesson=myth1 (on the default prompt): greedy, the first-token choices and the path are shown", async () => {
    const { page, context } = await open("?lang=zh&projector=1&lesson=myth1", { viewport: { width: 1024, height: 768 } });
    const choices = page.locator(".lesson-body .lesson-choices button");
    await choices.first().waitFor();
    assert.ok((await choices.count()) >= 2, "tokens to force at the first step");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("strategy") === "greedy");
    assert.ok((await page.locator("#chips li").count()) > 3, "greedy wrote its sentence");
    await context.close();
  });

  test("zh ?lesson=myth2 (on the default prompt): the chapter's hand-made table (logit 3 for 超集), not the model's logits", async () => {
    const { page, context } = await open("?lang=zh&lesson=myth2", { viewport: { width: 1024, height: 768 } });
    // (the lesson's table is editable: each logit is a box in its row)
    const firstRow = page.locator(".lesson-body tbody tr").first();
    await page.waitForFunction(() => document.querySelector(".lesson-body tbody tr input.lesson-logit")?.value === "3");
    assert.match(await firstRow.locator("th").textContent(), /超集/);
    assert.equal(await firstRow.locator("input.lesson-logit").inputValue(), "3");
    await context.close();
  });

  test("a shared lesson link with its own page keeps that page", async () => {
    const prompt = encodeURIComponent("TypeScript 是 JavaScript 的");
    const { page, context } = await open(`?lang=zh&lesson=myth1&prompt=${prompt}&strategy=sample&seed=5`);
    await page.locator(".lesson-body").first().waitFor();
    // the lesson has done all it does on arrival (then a moment more: nothing overwrites the link's page)
    await page.waitForFunction(() => document.body.dataset.ready === "true" && !document.getElementById("lessons").hasAttribute("aria-busy"));
    await page.waitForTimeout(300);
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get("strategy"), "sample");
    assert.equal(params.get("seed"), "5");
    await context.close();
  });
});

describe("a lesson link that also names settings or a prompt: the lesson set up, then those on top", () => {
  /** The page once the linked lesson is set up and idle: its link's query and the prompt box. */
  async function settled(page) {
    await page.locator(".lesson-body").first().waitFor();
    await page.waitForFunction(() => document.body.dataset.ready === "true" && !document.getElementById("lessons").hasAttribute("aria-busy"));
    await page.waitForTimeout(300);
    return { params: new URL(page.url()).searchParams, prompt: await page.locator("#prompt").inputValue() };
  }

  test("zh ?lesson=exp2&temperature=0.5: 实验二's prompt and draw, at T 0.5 (the link's temperature was lost to the set-up)", async () => {
    const { page, context } = await open("?lang=zh&lesson=exp2&temperature=0.5");
    const { params, prompt } = await settled(page);
    assert.equal(prompt, "React 是一个用于构建", "the lesson's own prompt");
    assert.equal(params.get("temperature"), "0.5");
    assert.equal(await page.locator("#temperature").inputValue(), "0.5");
    // the rest of 实验二's set-up stands: plain sampling, its seed
    assert.notEqual(params.get("strategy"), "greedy", "sampling, as the lesson sets it");
    assert.equal(params.get("seed"), "1");
    // its text says 「温度 1」: the notice says the link's 0.5 is used in its place, and how to get 1 back
    const notice = await page.locator("#url-notice").innerText();
    assert.match(notice, /这个链接改动了课程自己设定的参数/);
    assert.match(notice, /temperature =「0\.5」：已代替实验二自己的 1.*「重新开始」/);
    await context.close();
  });

  test("en ?lesson=exp1&strategy=sample: a setting the lesson needs is used as the link says, and the notice says so (it was used without a word)", async () => {
    const { page, context } = await open("?lang=en&lesson=exp1&strategy=sample");
    const { params } = await settled(page);
    assert.equal(params.get("strategy"), "sample");
    assert.equal(await page.locator("#url-notice").isVisible(), true);
    const notice = await page.locator("#url-notice").innerText();
    assert.match(notice, /^This link changes settings the lesson sets itself:/);
    assert.match(notice, /strategy = “sample”: used in place of Exp\. 1's own greedy, which the lesson's text is written for \(“Start over” sets it back\)/);
    // Start over: the lesson's own greedy
    await page.locator(".lesson-body").getByRole("button", { name: "Start over" }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("strategy") === "greedy");
    // the other language says it too
    await page.locator("#lang-toggle").click();
    assert.match(await page.locator("#url-notice").innerText(), /这个链接改动了课程自己设定的参数：[\s\S]*strategy =「sample」：已代替实验一自己的 greedy/);
    await context.close();
  });

  test("en ?lesson=myth1&seed=3&prompt=…: 误解一 set up (greedy) on the link's own prompt and seed", async () => {
    const own = "中国的首都是";
    const { page, context } = await open(`?lang=en&lesson=myth1&seed=3&prompt=${encodeURIComponent(own)}`);
    const { params, prompt } = await settled(page);
    assert.equal(prompt, own, "the link's prompt, not the lesson's");
    assert.equal(params.get("seed"), "3");
    assert.equal(params.get("strategy"), "greedy", "the lesson's own setting where the link names none");
    // a seed and a prompt change no setting the lesson's text is written for: nothing to say
    assert.equal(await page.locator("#url-notice").isHidden(), true);
    await context.close();
  });

  test("embedded (#lesson=exp1&max_new_tokens=4, as the element writes it): 实验一 stops after 4 tokens, not its 8", async () => {
    const { page, context } = await open("?embed=1&lang=zh#lesson=exp1&max_new_tokens=4", { viewport: { width: 800, height: 700 } });
    await settled(page);
    assert.equal(await page.locator("#max-new").inputValue(), "4");
    await context.close();
  });
});

test("a lesson named as its button says it (实验二, Myth 3) is that lesson; one the page lacks is named with the ids it has", async () => {
  const { page, context } = await open(`?lang=zh&lesson=${encodeURIComponent("误解七")}`);
  const notice = page.locator("#url-notice");
  await notice.waitFor();
  const text = await notice.textContent();
  assert.match(text, /误解七/);
  assert.match(text, /exp1.*exp2.*exp3.*myth1.*myth6.*quiz/s, "the ids a link may name");
  await context.close();
  for (const [query, id] of [[`?lang=zh&lesson=${encodeURIComponent("实验二")}`, "exp2"], ["?lang=en&lesson=Myth%203", "myth3"], ["?lang=en&lesson=MYTH3", "myth3"]]) {
    const named = await open(query);
    await named.page.locator(".lesson-body").first().waitFor();
    await named.page.waitForFunction((want) => new URL(location.href).searchParams.get("lesson") === want, id);
    assert.equal(await named.page.locator("#url-notice").isHidden(), true, `${query}: no notice`);
    await named.context.close();
  }
});
