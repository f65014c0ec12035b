// Who this browser is: the learner and the tab, ids kept in its storage and sent to Python once the table is ready.

/** The learner this browser belongs to: an id made once and kept, so each learner's games stay their own. */
const LEARNER_KEY = "cut_tutor.learner";
function learner() {
  try {
    let id = localStorage.getItem(LEARNER_KEY);
    if (!id) {
      id = window.crypto && crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36) + Math.random().toString(36).slice(2);
      localStorage.setItem(LEARNER_KEY, id);
    }
    return id;
  } catch (_) {
    return null; // no storage (a private window): the tutor home itself holds the games
  }
}

/** This browser tab: an id kept for the tab's life, reloads included, so a reload offers its game back as its own. */
const TAB_KEY = "cut_tutor.tab";
function browserTab() {
  try {
    let id = sessionStorage.getItem(TAB_KEY);
    if (!id) {
      id = Date.now().toString(36) + Math.random().toString(36).slice(2);
      sessionStorage.setItem(TAB_KEY, id);
    }
    return id;
  } catch (_) {
    return null; // no storage: every reload is a tab of its own
  }
}
