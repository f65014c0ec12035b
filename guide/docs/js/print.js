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
  // Every printed page's foot names where the guide is read from, so a page that strays finds its way back:
  // the address is the server's (or the file's), known only here.
  const site = new URL("./", window.location.href).href;
  const footer = document.createElement("style");
  footer.className = "cut-print-footer";
  footer.textContent = `@page { @bottom-left { content: ${JSON.stringify(site)} } }`;
  document.head.appendChild(footer);
});
