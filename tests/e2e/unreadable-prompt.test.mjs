// A prompt the model cannot read (longer than its 127 tokens), in Chromium: a paste says how to fix
// it and nothing asks for a Step that is off; in projector mode the message points at the
// projector's prompt box, not the hidden sidebar's; a shared link whose paths start from such a
// prompt keeps the whole link in the address bar and says why it could not replay them (zh, en).
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li").allInnerTexts();
const notice = (page) => page.locator("#url-notice");
const address = (page) => page.evaluate(() => location.search + location.hash);

describe("a prompt the model cannot read", () => {
  for (const projector of [false, true]) {
    test(`a 300-character paste${projector ? " in projector mode" : ""}: the error says what to do, and nothing says "Press Step"`, async () => {
      const prompt = "语言模型每一步都会为词表里的每个词元打分，".repeat(15).slice(0, 300);
      const { page, context } = await open(`?lang=en${projector ? "&projector=1" : ""}&prompt=${encodeURIComponent(prompt)}`, { viewport: { width: 1024, height: 768 } });
      await page.keyboard.press("ArrowRight");
      assert.match(await page.locator("#error").innerText(), /at most 127 tokens, got 213\. Shorten the prompt/);
      assert.ok(await page.locator("#step").isDisabled(), "Step is off");
      const hint = await page.locator("#chips").evaluate((list) => getComputedStyle(list, "::after").content);
      assert.doesNotMatch(hint, /Press Step/, "the empty strip does not ask for a Step that is off");
      await context.close();
    });
  }
});

describe("projector mode: a prompt the model cannot read says how to reach the projector's prompt box", () => {
  const texts = {
    en: { pj: /[Pp]ress “✎ Prompt” \(or E\)/, box: /in the prompt box|Shorten the prompt, then press Enter/ },
    zh: { pj: /按「✎ 提示词」（或 E 键）/, box: /请在提示词框里|请缩短提示词，再按回车/ },
  };
  for (const lang of ["en", "zh"]) {
    for (const [name, prompt] of [["empty", ""], ["too long", "这是一个很长的句子。".repeat(60)]]) {
      test(`${lang}, ${name}: the message names “✎ Prompt”; out of projector mode, the sidebar's box`, async () => {
        const { page, context } = await open(`?lang=${lang}&projector=1`, { viewport: { width: 1024, height: 768 } });
        await page.locator("#pj-prompt-edit").click();
        await page.locator("#pj-prompt-text").fill(prompt);
        await page.locator("#pj-prompt-text").press("Enter");
        const error = page.locator("#error");
        await error.waitFor();
        assert.match(await error.innerText(), texts[lang].pj);
        // the sidebar (and its box) is back: the message says so
        await page.keyboard.press("p");
        await page.locator("#prompt").waitFor();
        assert.match(await error.innerText(), texts[lang].box);
        assert.doesNotMatch(await error.innerText(), texts[lang].pj);
        await context.close();
      });
    }
  }
});

describe("a link with paths whose prompt is longer than the model reads", () => {
  let link = "";
  before(async () => {
    const { page, context } = await open("?lang=en");
    await page.getByRole("button", { name: "Step", exact: true }).click();
    await page.getByRole("button", { name: "Step", exact: true }).click();
    const query = new URLSearchParams(await page.evaluate(() => location.search));
    // ~300 words: within the link's 2,000 characters, far over the model's tokens
    query.set("prompt", "the cat sat on the mat and ".repeat(40).trim());
    link = `?${query.toString()}`;
    await context.close();
  });

  test("keeps the whole link in the address bar, and says why and what to do (en, zh)", async () => {
    assert.match(link, /&path=\d+\.\d+&/);
    const { page, context, problems } = await open(link);
    assert.deepEqual(await chips(page), []);
    const en = await notice(page).textContent();
    assert.ok(await notice(page).isVisible());
    assert.match(en, /1 path\(s\) \(2 tokens\) could not be replayed: the prompt is too long for the model \(.*at most 127 tokens, got \d+\)/);
    assert.match(en, /The address bar keeps the whole link until you change something/);
    assert.equal(await address(page), link);
    await page.getByRole("button", { name: "切换到中文" }).click();
    const zh = await notice(page).textContent();
    assert.match(zh, /链接里的 1 条路径（共 2 个 Token）无法重放：提示词对模型来说太长了（提示词最多 127 个 Token/);
    // switching the language is no change of what the link shows: the paths stay in the address bar
    assert.match(await address(page), /&path=\d+\.\d+&/);
    // the user's own change (a shorter prompt) is what the address bar follows
    await page.locator("#prompt").fill("the cat sat");
    await page.locator("#prompt").press("Enter");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("prompt") === "the cat sat");
    // (Enter also steps: whatever path there is now is the new prompt's, not the link's)
    assert.notEqual(new URLSearchParams(await address(page)).get("path"), new URLSearchParams(link).get("path"));
    assert.deepEqual(problems.console, []);
    await context.close();
  });
  test("over the link's 2,000 characters: the prompt box holds its start, and the messages name the model's limit in tokens", async () => {
    const query = new URLSearchParams(link);
    query.set("prompt", "the cat sat on the mat and ".repeat(100).trim());
    const longer = `?${query.toString()}`;
    const { page, context, problems } = await open(longer);
    assert.deepEqual(await chips(page), []);
    assert.equal(await page.locator("#prompt").inputValue(), query.get("prompt").slice(0, 2000));
    const text = await notice(page).textContent();
    assert.match(text, /longer than 2000 characters, far more than the model reads/);
    assert.match(text, /could not be replayed: the prompt is too long for the model \(.*at most 127 tokens/);
    assert.match(await page.locator("#error").textContent(), /at most 127 tokens/);
    assert.equal(await address(page), longer);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});
