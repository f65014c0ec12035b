// *Back to the game* at the top of every page of the guide opened from the game: the app opens the guide in a
// window of its own beside the game and names the game's window, so the way back finds that window again (and
// only opens the game afresh when it has been closed). The game's address is the page that opened the guide,
// kept for this tab while the reader moves from page to page.
document.addEventListener("DOMContentLoaded", () => {
  const KEY = "cut_tutor.game";
  const GAME_WINDOW = "cut-tutor-game";
  let game = null;
  try {
    const from = document.referrer ? new URL(document.referrer) : null;
    if (from && from.origin === location.origin && !from.pathname.includes("/guide/")) {
      sessionStorage.setItem(KEY, from.href);
    }
    game = sessionStorage.getItem(KEY);
  } catch (_) {
    return; // no storage: the guide reads on its own
  }
  if (!game) return;
  const link = document.createElement("a");
  link.className = "cut-back";
  link.href = game;
  link.textContent = "← Back to the game";
  link.addEventListener("click", (event) => {
    const win = window.open("", GAME_WINDOW);
    if (!win) return; // a blocked window: the link itself goes to the game
    event.preventDefault();
    if (win.location.href === "about:blank") win.location.href = game;
    win.focus();
  });
  (document.querySelector(".rst-content") || document.body).prepend(link);
});
