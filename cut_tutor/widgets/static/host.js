// What both page modules share, read by Python ahead of each (``cut_tutor.page``): one copy each of
// the element maker and of the host's theme.

/** @param {string} tag @param {string} [cls] @param {string} [text] */
function h(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Is the page around the widget dark: JupyterLab's or Voilà's dark theme (``?theme=dark``), read from the body's
 * theme flag, else from the brightness of the host's ``--jp-layout-color0``? */
function hostIsDark() {
  const flag = document.body.dataset.jpThemeLight;
  if (flag === "true" || flag === "false") return flag === "false";
  if (new URLSearchParams(location.search).get("theme") === "dark") return true;
  const probe = document.createElement("span");
  probe.style.color = getComputedStyle(document.body).getPropertyValue("--jp-layout-color0").trim() || "#fff";
  document.body.appendChild(probe);
  const rgb = (getComputedStyle(probe).color.match(/[\d.]+/g) || ["255", "255", "255"]).map(Number);
  probe.remove();
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] < 128;
}
