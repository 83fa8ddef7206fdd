// A teacher's own prompt over llama.cpp's real server. llama.cpp's tokenizer parses special tokens
// in text, so a prompt typed as "…</s>" holds the end token itself and the model continues as after
// a finished text. The embedded model's note ("</s>" is four ordinary characters) would be false
// there, and before this test the page said nothing at all: the sidebar now says what the server
// did, in both languages, and only when it did.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { screenshot } from "./harness.mjs";
import { connect, serverSuite, setPrompt, stepReady } from "./server-suite.mjs";

const { env, open } = serverSuite();
const parsed = (page) => page.locator("#prompt-eos-parsed");
const described = (page) => page.locator("#prompt").getAttribute("aria-describedby");

describe("a prompt holding the end token's text, over llama.cpp", () => {
  for (const [lang, words] of [["en", /read the “<\/s>” in your prompt as its end token/], ["zh", /把提示词里的 “<\/s>” 读成了它的结束符/]]) {
    test(`${lang}: the sidebar says the server read "</s>" as its end token; a prompt without it says nothing`, async () => {
      const { page, context, seen } = await open(`?lang=${lang}`, { width: 1024, height: 768 });
      await connect(page, env.llama.url);
      await setPrompt(page, "The capital of France is</s>");
      await stepReady(page);
      await page.waitForFunction(() => !document.getElementById("prompt-eos-parsed").hidden);
      assert.match(await parsed(page).textContent(), words);
      assert.equal(await page.locator("#prompt-eos").isHidden(), true, "the embedded model's note would be false here");
      assert.match(await described(page), /prompt-eos-parsed/, "the prompt box's description includes it");
      await screenshot(page, `server-prompt-eos-${lang}.png`);
      await setPrompt(page, "The capital of France is");
      await stepReady(page);
      await page.waitForFunction(() => document.getElementById("prompt-eos-parsed").hidden);
      assert.doesNotMatch(await described(page), /prompt-eos/);
      assert.deepEqual(seen.console, []);
      await context.close();
    });
  }
});
