// A Print / Save as PDF button at the top of every page of the guide: the browser's own print dialog, which
// also saves a PDF. The print stylesheet (css/print.css) hides the button and the navigation on paper.
document.addEventListener("DOMContentLoaded", () => {
  const content = document.querySelector(".rst-content") || document.body;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cut-print";
  button.textContent = "🖨 Print / Save as PDF";
  button.addEventListener("click", () => window.print());
  content.prepend(button);
});
