// The model card's licence text. Apache-2.0 asks that a copy travel with work adapted from the
// Hugging Face course, so it is bundled (also into the single file); it enters the page only
// when the reader opens it.
import licence from "../../model/LICENSE-huggingface-course.txt?raw";

export function installModelAbout(): void {
  const box = document.querySelector<HTMLDetailsElement>(".model-licence");
  const text = document.getElementById("model-licence-text");
  if (box === null || text === null) return;
  box.addEventListener("toggle", () => {
    if (box.open && text.textContent === "") text.textContent = licence;
  });
}
