// A link made after the settings changed between steps (T 0.8 for three steps, then T 2): whoever
// opens it gets every step as its author saw it: the same tokens, none turned "forced", and each
// step's charts and numbers made under the settings of that step, not the link's last ones.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, seededRandom, ownState } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li");
const step = (page) => page.getByRole("button", { name: "Step", exact: true }).click();

async function setField(page, label, value) {
  await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByLabel(label, { exact: true }).press("Tab");
}

/** Every step as inspected: its chip (text, forced), the chosen token's line and every chart's text. */
async function seen(page) {
  const steps = [];
  const n = await chips(page).count();
  for (let i = 0; i < n; i++) {
    await chips(page).nth(i).getByRole("button").click();
    steps.push({
      chip: await chips(page).nth(i).evaluate((li) => `${li.textContent}|${li.dataset.forced ?? "false"}`),
      chosen: await page.locator("#stat-chosen").textContent(),
      charts: await page.locator("#stages").innerText(),
    });
  }
  return steps;
}

describe("a link after settings changed between steps", () => {
  test("T 0.8 for three steps, then T 2 for three: every step reopens as it was seen", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    await setField(page, "Temperature", "0.8");
    await setField(page, "Seed", "7");
    for (let i = 0; i < 3; i++) await step(page);
    await setField(page, "Temperature", "2");
    await setField(page, "Top-p", "1");
    for (let i = 0; i < 3; i++) await step(page);
    assert.equal(await chips(page).count(), 6);
    const before = await seen(page);
    assert.ok(before.every((s) => s.chip.endsWith("|false")), "every token was the core's choice");
    assert.match(before[0].charts, /0\.8/, "step 1 made at T 0.8");
    const link = await ownState(page);
    await context.close();

    const again = await open(link);
    assert.ok(await again.page.locator("#url-notice").isHidden(), "a page-made link has no problems");
    assert.equal(await again.page.getByLabel("Temperature", { exact: true }).inputValue(), "2", "the settings last used");
    const after = await seen(again.page);
    for (let i = 0; i < before.length; i++) assert.deepEqual(after[i], before[i], `step ${i + 1}`);
    assert.deepEqual(again.problems.console, []);
    await again.context.close();
  });

  test("a branch made under its own settings, and the path it left, reopen as seen; a bad `set` is named", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    await setField(page, "Seed", "11");
    await setField(page, "Temperature", "0.7");
    for (let i = 0; i < 4; i++) await step(page);
    // force the third candidate at step 2, under other settings, then go on
    await setField(page, "Temperature", "1.4");
    await setField(page, "Top-k", "5");
    await chips(page).nth(1).getByRole("button").click();
    await page.locator('#stages [data-stage="softmax"] [role="button"]').nth(2).click();
    for (let i = 0; i < 2 && !(await page.locator("#step").isDisabled()); i++) await step(page);
    await setField(page, "Temperature", "1");
    const branch = await seen(page);
    await page.locator("#tree button").first().click();
    const first = await seen(page);
    const link = await ownState(page);
    assert.match(link, /[?&]v=3&/);
    assert.match(link, /set=0_0_temperature%3A0\.7/);
    assert.match(link, /&at=0(&|$)/, "the first path was on screen");
    await context.close();

    const again = await open(link);
    assert.ok(await again.page.locator("#url-notice").isHidden(), "a page-made link has no problems");
    assert.equal(await again.page.locator("#tree button").first().getAttribute("aria-current"), "true", "the path on screen is the one shared");
    const same = (after, before, name) => {
      assert.equal(after.length, before.length, name);
      for (let i = 0; i < before.length; i++) assert.deepEqual(after[i], before[i], `${name}, step ${i + 1}`);
    };
    same(await seen(again.page), first, "the first path");
    await again.page.locator("#tree button").nth(1).click();
    same(await seen(again.page), branch, "the branch");
    await again.context.close();

    const bad = await open(`${link}&set=0_1_temperature:9&set=0_2_color:red`);
    const text = await bad.page.locator("#url-notice").innerText();
    assert.match(text, /set = “0_1_temperature:9”: must be a path, a token and settings/);
    assert.match(text, /set = “0_2_color:red”/);
    await bad.context.close();
  });

  test("projector mode names the settings of the step on screen, not the ones set last", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    await setField(page, "Temperature", "0.8");
    await setField(page, "Seed", "7");
    for (let i = 0; i < 2; i++) await step(page);
    await setField(page, "Temperature", "2");
    await step(page);
    const link = await ownState(page);
    await context.close();

    const again = await open(`${link}&projector=1`, { viewport: { width: 1024, height: 768 } });
    const settings = again.page.locator(".projector-settings");
    await chips(again.page).nth(0).getByRole("button").click();
    assert.match(await settings.textContent(), /\bT 0\.8\b/, "step 1 was made at T 0.8");
    await chips(again.page).nth(2).getByRole("button").click();
    assert.match(await settings.textContent(), /\bT 2\b/, "step 3 at T 2");
    assert.deepEqual(again.problems.console, []);
    await again.context.close();
  });

  test("a long model link with per-step settings shows its path first and rebuilds the others, each step as a whole replay makes it", async () => {
    // 4 paths of forced tokens from the whole vocabulary (340 tokens: more than a link replayed
    // whole before ready), branch 2 hanging off branch 1 off the first path; settings runs on
    // three of them, none on branch 3 (its first 10 tokens are the first path's, made at T 0.7)
    const next = seededRandom(12);
    const forced = (n) => Array.from({ length: n }, () => 300 + Math.floor(next() * 7700));
    const p0 = forced(100);
    const b1 = forced(80); // off path 0 at 40
    const b2 = forced(50); // off branch 1 at 70
    const b3 = forced(110); // off path 0 at 10
    const ids = (xs) => xs.map((x) => `${x}f`).join(".");
    const base = { v: "2", lang: "en", source: "model", prompt: "a", max_new_tokens: "512", seed: "11", temperature: "1" };
    const query = new URLSearchParams({ ...base, path: ids(p0) });
    query.append("branch", `0_40_${ids(b1)}`);
    query.append("branch", `1_70_${ids(b2)}`);
    query.append("branch", `0_10_${ids(b3)}`);
    const runs = ["0_0_temperature:0.7", "0_60_temperature:1.4,top_k:5", "1_40_top_p:0.8", "1_55_seed:3", "2_70_min_p:0.1"];
    for (const run of runs) query.append("set", run);
    query.set("at", "2");
    // whether a path still waited when the page became ready (checked before the Backfill's first turn)
    const beforeGoto = (page) =>
      page.addInitScript(() => {
        new MutationObserver(() => {
          if (document.body?.dataset.ready === "true") window.waitedAtReady ??= [...document.querySelectorAll("#tree .logp")].some((e) => e.textContent === "…");
        }).observe(document, { attributes: true, subtree: true });
      });
    const { page, context, problems } = await open(`?${query}`, { beforeGoto });
    assert.equal(await page.evaluate(() => window.waitedAtReady), true, "the paths not on screen were rebuilt after ready");
    assert.ok(await page.locator("#url-notice").isHidden(), "a link the page can write has no problems");
    const runsOf = (search) => new URLSearchParams(search).getAll("set").sort();
    assert.deepEqual(runsOf(await ownState(page)), [...runs].sort(), "the page's own link, paths still waiting");
    await page.waitForFunction(() => [...document.querySelectorAll("#tree li .logp")].every((e) => e.textContent !== "…"), null, { timeout: 60_000 });
    assert.deepEqual(runsOf(await ownState(page)), [...runs].sort(), "the page's own link, every path in");
    const chip = (p) => chips(p).evaluateAll((items) => items.map((li) => `${li.textContent}|${li.dataset.forced}|${li.dataset.rank}|${li.querySelector("button")?.title}`));
    const inspect = async (p, steps) => {
      const out = [];
      for (const n of steps) {
        await chips(p).nth(n).getByRole("button").click();
        out.push(await p.locator("#stages").innerText());
      }
      return out;
    };
    // each path as a link of its own (replayed whole, step by step under each token's settings)
    const alone = [
      { tokens: p0, set: ["0_0_temperature:0.7", "0_60_temperature:1.4,top_k:5"], steps: [0, 59, 60, 99] },
      { tokens: [...p0.slice(0, 40), ...b1], set: ["0_0_temperature:0.7", "0_40_top_p:0.8", "0_55_seed:3"], steps: [39, 40, 54, 55, 119] },
      { tokens: [...p0.slice(0, 40), ...b1.slice(0, 30), ...b2], set: ["0_0_temperature:0.7", "0_40_top_p:0.8", "0_55_seed:3", "0_70_min_p:0.1"], steps: [20, 69, 70, 119] },
      { tokens: [...p0.slice(0, 10), ...b3], set: ["0_0_temperature:0.7", "0_10_"], steps: [9, 10, 119] },
    ];
    const rebuilt = [];
    for (const [index, path] of alone.entries()) {
      await page.locator("#tree button").nth(index).click();
      rebuilt.push({ chips: await chip(page), charts: await inspect(page, path.steps) });
    }
    assert.deepEqual(problems.console, []);
    await context.close();
    for (const [index, path] of alone.entries()) {
      const own = new URLSearchParams({ ...base, path: ids(path.tokens) });
      for (const run of path.set) own.append("set", run);
      const direct = await open(`?${own}`);
      assert.equal(await chips(direct.page).count(), path.tokens.length);
      assert.deepEqual(await chip(direct.page), rebuilt[index].chips, `path ${index + 1}: its chips`);
      assert.deepEqual(await inspect(direct.page, path.steps), rebuilt[index].charts, `path ${index + 1}: its steps' charts`);
      await direct.context.close();
    }
  });

  test("a link written before settings travelled per step (no v) still opens under its one set of settings", async () => {
    const { page, context } = await open("?lang=en&source=manual&preset=react-zh&strategy=greedy&path=0.0");
    assert.ok(await page.locator("#url-notice").isHidden());
    assert.equal(await chips(page).count(), 2);
    await context.close();
  });
});
